import { beforeAll, describe, expect, it } from 'vitest';
import { type BashParser, loadBashParser } from './bash-parser.js';
import { analyseCommand } from './command-analysis.js';
import { preflightScripts } from './script-preflight.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await loadBashParser();
});

const scripts: Record<string, string> = {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the file's JS source, not a template here
  '/w/app.js': 'console.log(`${process.env.HOME}`)\n',
  '/w/ok.py': 'import re\nprint(re.sub(r"a$", "", "xa"))\n',
  '/w/leak.py': 'print("/home/$USER/data")\n',
  '/w/leak.js': 'const dir = "$PROJECT_DIR";\n',
  '/w/run': '#!/usr/bin/env python3\nprint(1)\n',
  '/w/tool.sh': 'echo "$HOME"\n',
};

const check = (command: string) =>
  preflightScripts(analyseCommand(parser, command, { cwd: '/w' }), '/w', {
    readScript: async (path) => scripts[path],
  });

describe('script preflight', () => {
  it.each([
    ['node app.js'],
    ['python3 ok.py'],
    ['bash tool.sh'],
    ['python3 run'],
    ["python3 -c 'import sys; print(sys.argv)'"],
    ['node missing.js'],
  ])('lets %s through', async (command) => {
    expect(await check(command)).toEqual([]);
  });

  it.each([
    ['python3 app.js', 'wrong-interpreter'],
    ['bash app.js', 'wrong-interpreter'],
    ['node ok.py', 'wrong-interpreter'],
    ['bash run', 'wrong-interpreter'],
    ['python3 leak.py', 'shell-variable-in-script'],
    ['node leak.js', 'shell-variable-in-script'],
    ['python3 -c "print(\'$HOME\')"', 'shell-variable-in-inline-code'],
    ['node -e "console.log(\'$USER\')"', 'shell-variable-in-inline-code'],
  ])('reports %s', async (command, code) => {
    const issues = await check(command);
    expect(issues.map((issue) => issue.code)).toEqual([code]);
    expect(issues[0]?.detail.length).toBeGreaterThan(10);
  });
});
