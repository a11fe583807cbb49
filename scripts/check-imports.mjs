#!/usr/bin/env node
// Checks every import of the repo against the layer table (scripts/import-rules.mjs):
// layers, capabilities through their index.ts only, the renderer and extensions kept to
// what they may see, Electron only in the shell. Prints each violation with file and line,
// exits 1 when there is any. `node scripts/check-imports.mjs [root]`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importExceptions } from './import-exceptions.mjs';
import { capabilities, electronAllowed, layerRules } from './import-rules.mjs';

const sourceRoots = ['src-main', 'src-renderer', 'src-preload', 'extensions', 'e2e', 'bench'];
const skippedFolders = new Set(['node_modules', 'dist', 'release', 'artifacts']);

/** `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`, `vi.importActual('x')`. */
const specifierPattern =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function* sourceFiles(root, folder) {
  let entries;
  try {
    entries = readdirSync(join(root, folder), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (skippedFolders.has(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(root, path);
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

function toPosix(path) {
  return path.split(sep).join('/');
}

/** Line number of a character offset, for the report. */
function lineOf(text, offset) {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The capability folder a repo path lies in (`src-main/memory/x.ts` → `memory`), if any. */
function capabilityOf(path) {
  const match = /^src-main\/([^/]+)\//.exec(path);
  return match && capabilities.includes(match[1]) ? match[1] : undefined;
}

/** Tests, fakes, e2e and benchmarks reach into modules on purpose (and may import src-main/testing/). */
function isTestSupport(file) {
  return (
    /\.(test|spec)\.tsx?$/.test(file) ||
    file.startsWith('src-main/testing/') ||
    file.startsWith('e2e/') ||
    file.startsWith('bench/') ||
    /\/testing\//.test(file)
  );
}

/** A folder's index.ts is its public face, at any depth (agent/context/index.ts); the plugin SDK is public as a whole. */
function isPublicFace(owner, inner) {
  return /(^|\/)index\.(js|ts)$/.test(inner) || (owner === 'plugins' && inner.startsWith('sdk/'));
}

export function checkImports(root, exceptions = importExceptions) {
  const violations = [];
  const usedExceptions = new Set();
  for (const top of sourceRoots) {
    for (const path of sourceFiles(root, top)) {
      const file = toPosix(path);
      const text = readFileSync(join(root, path), 'utf8');
      for (const match of text.matchAll(specifierPattern)) {
        const specifier = match[1] ?? match[2];
        const line = lineOf(text, (match.index ?? 0) + match[0].length - match[0].trimStart().length);
        const report = (rule) => violations.push({ file, line, specifier, rule });
        if (specifier === 'electron' || specifier.startsWith('electron/')) {
          if (!electronAllowed.some((prefix) => file.startsWith(prefix)))
            report('electron is imported only by src-main/app and src-preload');
          continue;
        }
        if (!specifier.startsWith('.')) continue;
        const target = toPosix(normalize(join(dirname(file), specifier)));
        const testSupport = isTestSupport(file);
        for (const rule of layerRules) {
          if (!rule.from.some((prefix) => file.startsWith(prefix)) || !rule.forbid(target)) continue;
          // Tests may use the fakes and helpers of src-main/testing/ whatever layer they test.
          if (testSupport && target.startsWith('src-main/testing/')) continue;
          const key = `${file} -> ${target}`;
          if (exceptions.has(key)) usedExceptions.add(key);
          else report(rule.name);
        }
        // A capability's public face is its index.ts: from outside its folder, nothing else.
        const owner = capabilityOf(target);
        if (owner && capabilityOf(file) !== owner && !testSupport) {
          if (!isPublicFace(owner, target.slice(`src-main/${owner}/`.length))) {
            const key = `${file} -> ${target}`;
            if (exceptions.has(key)) usedExceptions.add(key);
            else report(`import ${owner} through src-main/${owner}/index.ts`);
          }
        }
      }
    }
  }
  const staleExceptions = [...exceptions].filter((key) => !usedExceptions.has(key));
  return { violations, staleExceptions };
}

const invokedDirectly = process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1]);
if (invokedDirectly) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
  const { violations, staleExceptions } = checkImports(root);
  for (const v of violations) console.error(`${v.file}:${v.line}: ${v.rule} (imports '${v.specifier}')`);
  for (const key of staleExceptions)
    console.error(`scripts/import-exceptions.mjs: "${key}" no longer occurs; remove it from the list`);
  if (violations.length > 0 || staleExceptions.length > 0) {
    console.error(
      `\n${violations.length} import(s) break the layer rules (docs/ARCHITECTURE.md "Layers"), ${staleExceptions.length} stale exception(s)`,
    );
    process.exit(1);
  }
  console.log(`imports: ok (${relative(process.cwd(), root) || '.'})`);
}
