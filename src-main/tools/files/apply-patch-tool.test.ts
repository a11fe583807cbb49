import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolsFixture, type FileToolsFixture } from '../../testing/file-tools-fixture.js';

let fx: FileToolsFixture;
const code = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n';
const notes = 'one\ntwo\nthree\n';
beforeEach(async () => {
  fx = await createFileToolsFixture();
  await writeFile(join(fx.workspace, 'code.js'), code);
  await mkdir(join(fx.workspace, 'docs'));
  await writeFile(join(fx.workspace, 'docs', 'notes.txt'), notes);
});
afterEach(() => fx.dispose());
const read = (path: string) => readFile(join(fx.workspace, path), 'utf8');

const twoFiles = `diff --git a/code.js b/code.js
--- a/code.js
+++ b/code.js
@@ -1,3 +1,3 @@
 function a() {
-  return 1;
+  return 10;
 }
@@ -5,3 +5,3 @@
 function b() {
-  return 2;
+  return 20;
 }
--- a/docs/notes.txt
+++ b/docs/notes.txt
@@ -1,3 +1,4 @@
 one
 two
+two and a half
 three
--- /dev/null
+++ b/docs/new.md
@@ -0,0 +1,2 @@
+# New
+made by a patch
`;

describe('apply_patch', () => {
  it('applies a multi-file diff: patches, creates, and says what it did', async () => {
    const result = await fx.run('apply_patch', { patch: twoFiles });
    expect(result).toEqual({ output: 'patched code.js\npatched docs/notes.txt\ncreated docs/new.md' });
    expect(await read('code.js')).toBe(code.replace('return 1', 'return 10').replace('return 2', 'return 20'));
    expect(await read('docs/notes.txt')).toBe('one\ntwo\ntwo and a half\nthree\n');
    expect(await read('docs/new.md')).toBe('# New\nmade by a patch\n');
  });

  it('names the hunk that does not apply and the line that differs, and writes nothing', async () => {
    const stale = twoFiles.replace(' function b() {\n-  return 2;', ' function b() {\n-  return 3;');
    const result = await fx.run('apply_patch', { patch: stale });
    expect(result.isError).toBe(true);
    expect(result.output).toBe(
      'apply_patch: hunk 2 of 2 (@@ -5,3 +5,3 @@) in code.js does not apply: line 6 is "  return 2;" but the patch expects "  return 3;"; read the file again and make the - and context lines match it exactly',
    );
    expect(await read('code.js')).toBe(code);
    expect(await read('docs/notes.txt')).toBe(notes);
    await expect(stat(join(fx.workspace, 'docs', 'new.md'))).rejects.toThrow();
  });

  it('is all or none when a later file fails (the first file is left as it was)', async () => {
    const bad = `${twoFiles}--- a/docs/missing.txt\n+++ b/docs/missing.txt\n@@ -1 +1 @@\n-x\n+y\n`;
    const result = await fx.run('apply_patch', { patch: bad });
    expect(result).toEqual({
      output: "apply_patch: docs/missing.txt: no such file (a new file's diff starts with --- /dev/null)",
      isError: true,
    });
    expect(await read('code.js')).toBe(code);
    await expect(stat(join(fx.workspace, 'docs', 'new.md'))).rejects.toThrow();
  });

  it('finds a hunk whose line numbers are off, when its lines occur once', async () => {
    const moved = `--- a/code.js\n+++ b/code.js\n@@ -1,3 +1,3 @@\n function b() {\n-  return 2;\n+  return 3;\n }\n`;
    expect((await fx.run('apply_patch', { patch: moved })).output).toBe('patched code.js');
    expect(await read('code.js')).toContain('return 3;');
  });

  it('refuses an ambiguous offset hunk', async () => {
    await writeFile(join(fx.workspace, 'twice.txt'), 'x\ny\nz\nx\ny\nz\n');
    const patch = `--- a/twice.txt\n+++ b/twice.txt\n@@ -9,2 +9,2 @@\n x\n-y\n+Y\n`;
    const result = await fx.run('apply_patch', { patch });
    expect(result.output).toMatch(/hunk 1 of 1 .* occur more than once .*add context lines/);
    expect(await read('twice.txt')).toBe('x\ny\nz\nx\ny\nz\n');
  });

  it('deletes a file, keeps CRLF endings, and handles "No newline at end of file"', async () => {
    await writeFile(join(fx.workspace, 'win.txt'), 'a\r\nb\r\n');
    await writeFile(join(fx.workspace, 'eol.txt'), 'last');
    await writeFile(join(fx.workspace, 'gone.txt'), 'bye\n');
    const patch = [
      '--- a/win.txt\n+++ b/win.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n',
      '--- a/eol.txt\n+++ b/eol.txt\n@@ -1 +1,2 @@\n-last\n\\ No newline at end of file\n+last\n+more\n',
      '--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n',
    ].join('');
    expect((await fx.run('apply_patch', { patch })).output).toBe('patched win.txt\npatched eol.txt\ndeleted gone.txt');
    expect(await read('win.txt')).toBe('a\r\nc\r\n');
    expect(await read('eol.txt')).toBe('last\nmore\n');
    await expect(stat(join(fx.workspace, 'gone.txt'))).rejects.toThrow();
  });

  it("keeps a patched file's mode", async () => {
    await chmod(join(fx.workspace, 'code.js'), 0o755);
    await fx.run('apply_patch', { patch: twoFiles });
    expect((await stat(join(fx.workspace, 'code.js'))).mode & 0o777).toBe(0o755);
  });

  it('refuses what is not a unified diff, with what it takes', async () => {
    expect((await fx.run('apply_patch', { patch: 'just some text' })).output).toMatch(
      /no file changes found; the patch needs --- and \+\+\+ lines and @@ hunks/,
    );
    expect((await fx.run('apply_patch', { patch: '*** Begin Patch\n*** Update File: code.js\n' })).output).toMatch(
      /takes a unified diff .* not the \*\*\* Begin Patch format/,
    );
    expect((await fx.run('apply_patch', { patch: '' })).output).toMatch(/patch must not be empty/);
    const create = '--- /dev/null\n+++ b/code.js\n@@ -0,0 +1 @@\n+x\n';
    expect((await fx.run('apply_patch', { patch: create })).output).toMatch(/code\.js already exists/);
  });

  it('refuses ~/.ssh and the identity folder without asking, and writes nothing', async () => {
    const patch = (path: string) => `${twoFiles}--- /dev/null\n+++ ${path}\n@@ -0,0 +1 @@\n+key\n`;
    const ssh = await fx.run('apply_patch', { patch: patch(join(fx.home, '.ssh', 'authorized_keys')) });
    expect(ssh.output).toMatch(/^refused: .*authorized_keys is inside ~\/\.ssh; file tools never touch it$/);
    const identity = await fx.run('apply_patch', { patch: patch(join(fx.identityDir, 'device.json')) });
    expect(identity.output).toMatch(/inside the gateway's identity folder/);
    expect(fx.asked).toHaveLength(0);
    expect(await read('code.js')).toBe(code);
  });

  it('asks before patching outside the workspace (a symlink out counts), and a denial changes nothing', async () => {
    await writeFile(join(fx.outside, 'o.txt'), 'old\n');
    await symlink(fx.outside, join(fx.workspace, 'out'));
    const patch = '--- a/out/o.txt\n+++ b/out/o.txt\n@@ -1 +1 @@\n-old\n+new\n';
    const denied = await fx.run('apply_patch', { patch });
    expect(denied.output).toMatch(/^refused: .*o\.txt is outside the workspace/);
    expect(fx.asked).toHaveLength(1);
    expect(await readFile(join(fx.outside, 'o.txt'), 'utf8')).toBe('old\n');
    fx.answers.push('allow-once');
    expect((await fx.run('apply_patch', { patch })).isError).toBeUndefined();
    expect(await readFile(join(fx.outside, 'o.txt'), 'utf8')).toBe('new\n');
  });

  it('refuses a binary file', async () => {
    await writeFile(join(fx.workspace, 'x.bin'), Buffer.from([0, 1, 2, 3]));
    const patch = '--- a/x.bin\n+++ b/x.bin\n@@ -1 +1 @@\n-a\n+b\n';
    expect((await fx.run('apply_patch', { patch })).output).toMatch(/binary file.*apply_patch works on text only/);
  });
});
