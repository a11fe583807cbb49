import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkillInfo, SkillProposalInfo } from '../protocol/methods/skills.js';
import { CREDENTIALS } from '../testing/credential-samples.js';
import type { FakeLlmRequest } from '../testing/fake-llm/index.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Skills in the composed product, with a scripted fake LLM: the system prompt lists the bundled
// skills (names and one line each), skill_view reads one, skill_propose runs the quality gate
// (one kept, three refused for the right reasons, one with a script waiting for approval), and
// the skills.* methods list, read, disable and approve over the socket.

let product: ProductFixture;
beforeAll(async () => {
  product = await startProductFixture({ config: { memory: { recall: { enabled: false } } } });
});
afterAll(async () => {
  await product?.close();
});

const systemOf = (request: FakeLlmRequest) =>
  (request.body.messages as { role: string; content: string }[])[0]!.content;
/** The text of the tool results the last request carried back to the model. */
const toolResults = (request: FakeLlmRequest) =>
  (request.body.messages as { role: string; content: unknown }[])
    .filter((message) => message.role === 'tool')
    .map((message) => String(message.content));

const learned = `Rotate the nginx access logs of a site by hand when logrotate is not set up.

## Steps
1. Move the log: \`mv /var/log/nginx/access.log /var/log/nginx/access.log.1\`.
2. Tell nginx to reopen its logs: \`nginx -s reopen\`.
3. Compress the old file with \`gzip /var/log/nginx/access.log.1\`.

## Verification
\`ls -l /var/log/nginx/\` shows a fresh access.log growing and access.log.1.gz.`;

const request = async <T>(method: string, params: Record<string, unknown>) => {
  const answer = await product.socket.request(method, params);
  if (answer.error) throw new Error(answer.error.message);
  return answer.payload as T;
};

describe('skills in a session', () => {
  it('lists the skills in the system prompt and reads one with skill_view', async () => {
    const before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'skill_view', input: { name: 'commit-message' } }] },
      { type: 'text', text: 'Here is your commit message.' },
    ]);
    expect(await product.turn('sk-1', 'write a commit message for my staged changes')).toMatchObject({
      state: 'final',
    });
    const [first, second] = product.llm.requests.slice(before);
    const system = systemOf(first!);
    expect(system).toContain('Skills (skill_view reads one):');
    expect(system).toContain('propose one with skill_propose. (load skill_view with tools_load)');
    expect(system).toContain('- commit-message: Write a git commit message that says why');
    expect(system).toContain('- find-large-files: Find the largest folders and files');
    // Descriptions only: no skill body is in the prompt.
    expect(system).not.toContain('## Verification');
    expect(toolResults(second!).join('\n')).toContain('git diff --cached --stat');
    const { skills } = await request<{ skills: SkillInfo[] }>('skills.list', {});
    expect(skills.find((skill) => skill.name === 'commit-message')).toMatchObject({ uses: 1, origin: 'bundled' });
  });

  it('passes a good proposal and refuses a duplicate, a missing verification and a secret, for those reasons', async () => {
    const before = product.llm.requests.length;
    const bundledBody = (
      await readFile(join(import.meta.dirname, '..', '..', 'resources', 'skills', 'commit-message', 'SKILL.md'), 'utf8')
    ).split('---\n')[2]!;
    product.llm.script([
      {
        type: 'tool_calls',
        calls: [
          {
            name: 'skill_propose',
            input: { name: 'rotate-nginx-logs', description: 'Rotate nginx access logs by hand.', body: learned },
          },
        ],
      },
      {
        type: 'tool_calls',
        calls: [
          {
            name: 'skill_propose',
            input: {
              name: 'write-commit',
              description: 'Write a git commit message that says why.',
              body: bundledBody,
            },
          },
        ],
      },
      {
        type: 'tool_calls',
        calls: [
          {
            name: 'skill_propose',
            input: {
              name: 'rotate-apache-logs',
              description: 'Rotate apache logs.',
              body: learned.replace(/nginx/g, 'apache').replace(/## Verification[\s\S]*/, ''),
            },
          },
        ],
      },
      {
        type: 'tool_calls',
        calls: [
          {
            name: 'skill_propose',
            input: {
              name: 'call-openai',
              description: 'Call the OpenAI API from a shell.',
              body: `## Steps\n1. Run curl with -H "Authorization: Bearer ${CREDENTIALS[0]![1]}".\n\n## Verification\nThe reply is JSON.`,
            },
          },
        ],
      },
      { type: 'text', text: 'One skill kept.' },
    ]);
    await product.turn('sk-2', '/learn what we just did');
    const calls = product.llm.requests.slice(before);
    expect(calls).toHaveLength(5);
    const [kept, duplicate, unverified, secret] = calls.slice(1).map((call) => toolResults(call).at(-1)!);
    expect(kept).toMatch(/^Kept: the skill "rotate-nginx-logs" is in .*workspace.*skills\/rotate-nginx-logs\.$/);
    expect(duplicate).toContain('Not kept: the skill "write-commit" failed the quality gate');
    expect(duplicate).toMatch(/near-duplicate of the skill "commit-message"/);
    expect(unverified).toContain('missing verification: add a "## Verification" section');
    expect(unverified).not.toMatch(/near-duplicate|secret/);
    expect(secret).toMatch(/the body contains a secret \([^)]*\)/);
    expect(secret).not.toContain(CREDENTIALS[0]![1]);

    const { skills } = await request<{ skills: SkillInfo[] }>('skills.list', {});
    expect(skills.map((skill) => skill.name)).toEqual(['commit-message', 'find-large-files', 'rotate-nginx-logs']);
    // The next session's prompt lists the learned skill.
    product.llm.script([{ type: 'text', text: 'ok' }]);
    await product.turn('sk-3', 'hello', 'agent:main:fresh');
    expect(systemOf(product.llm.requests.at(-1)!)).toContain('- rotate-nginx-logs: Rotate nginx access logs by hand.');
  });

  it('a skill with a script waits for approval; skills.get, disable, enable, pin and approve over the socket', async () => {
    product.llm.script([
      {
        type: 'tool_calls',
        calls: [
          {
            name: 'skill_propose',
            input: {
              name: 'count-lines',
              description: 'Count the lines of code in a project by language.',
              body: '## Steps\n1. Run scripts/count.sh in the project folder.\n\n## Verification\nThe total matches `wc -l` over the files.',
              files: [{ path: 'scripts/count.sh', content: 'find . -name "*.ts" | xargs wc -l | tail -1\n' }],
            },
          },
        ],
      },
      { type: 'text', text: 'Proposed.' },
    ]);
    await product.turn('sk-4', 'learn this');
    expect(toolResults(product.llm.requests.at(-1)!).at(-1)).toMatch(
      /waits for a person's approval in the Skills view/,
    );
    const listed = await request<{ skills: SkillInfo[]; proposals: SkillProposalInfo[] }>('skills.list', {});
    expect(listed.skills.map((skill) => skill.name)).not.toContain('count-lines');
    const proposal = listed.proposals.find((p) => p.name === 'count-lines')!;
    expect(proposal).toMatchObject({ agentId: 'main', files: ['scripts/count.sh'] });

    expect(await request('skills.approve', { id: proposal.id })).toEqual({ name: 'count-lines', agentId: 'main' });
    const got = await request<{ skill: SkillInfo; text: string }>('skills.get', { name: 'count-lines' });
    expect(got.skill).toMatchObject({ origin: 'workspace', hasScripts: true, files: ['scripts/count.sh'] });
    expect(got.text).toContain('name: count-lines');

    expect((await request<{ skill: SkillInfo }>('skills.disable', { name: 'count-lines' })).skill.enabled).toBe(false);
    product.llm.script([{ type: 'text', text: 'ok' }]);
    await product.turn('sk-5', 'hi', 'agent:main:other');
    expect(systemOf(product.llm.requests.at(-1)!)).not.toContain('count-lines');
    expect((await request<{ skill: SkillInfo }>('skills.enable', { name: 'count-lines' })).skill.enabled).toBe(true);
    expect((await request<{ skill: SkillInfo }>('skills.pin', { name: 'count-lines' })).skill.pinned).toBe(true);

    const missing = await product.socket.request('skills.get', { name: 'nope' });
    expect(missing.error).toMatchObject({ code: 'NOT_FOUND' });
    expect(missing.error!.message).toContain('no skill named "nope"');
    const noProposal = await product.socket.request('skills.reject', { id: 'zzz' });
    expect(noProposal.error!.message).toContain('no proposed skill with id "zzz"');
  });
});

describe('/learn', () => {
  const replyOf = (end: Record<string, unknown>) =>
    (end.message as { content: { text: string }[] }).content.map((part) => part.text).join('');

  const lockfile = `Fix "npm ci" failing because package-lock.json is out of sync with package.json.

## Steps
1. Run \`npm install\` once to regenerate package-lock.json.
2. Commit package-lock.json together with package.json.
3. Run \`npm ci\` again in a clean checkout.

## Verification
\`npm ci\` exits 0, and \`git status\` shows package-lock.json unchanged afterwards.`;

  it('asks the model for a skill from the conversation so far, and the gate’s verdict reaches the person', async () => {
    const session = 'agent:main:learn';
    product.llm.script([{ type: 'text', text: 'Run npm install once, commit the lockfile, then npm ci works.' }]);
    await product.turn('learn-0', 'why does npm ci fail on my lockfile?', session);

    const before = product.llm.requests.length;
    product.llm.script([
      {
        type: 'tool_calls',
        calls: [
          {
            name: 'skill_propose',
            input: {
              name: 'npm-lockfile-sync-draft',
              description: 'Sync the npm lockfile.',
              body: lockfile.replace(/## Verification[\s\S]*/, ''),
            },
          },
        ],
      },
      {
        type: 'tool_calls',
        calls: [
          {
            name: 'skill_propose',
            input: {
              name: 'fix-npm-ci-lockfile',
              description: 'Fix npm ci failing on an out-of-sync lockfile.',
              body: lockfile,
            },
          },
        ],
      },
      { type: 'text', text: 'Kept the skill "fix-npm-ci-lockfile" (the first try lacked a verification section).' },
    ]);
    const end = await product.turn('learn-1', '/learn the lockfile fix', session);
    expect(end).toMatchObject({ state: 'final' });
    const [ask, afterRefusal, afterKept] = product.llm.requests.slice(before);

    // The model gets the person's command, Hearth's instruction with the focus, and the conversation before it.
    expect(ask!.lastUserText).toMatch(
      /^\/learn the lockfile fix\n\n\[\/learn: turn what this conversation taught into a skill, focused on: the lockfile fix\./,
    );
    expect(ask!.lastUserText).toContain('"## Steps" (numbered;');
    expect(ask!.lastUserText).toContain('"## Verification" (how to check it worked)');
    expect(ask!.lastUserText).toContain('waiting for their approval in the Skills view');
    expect(JSON.stringify(ask!.body)).toContain('why does npm ci fail on my lockfile?');
    expect(toolResults(afterRefusal!).at(-1)).toContain('missing verification: add a "## Verification" section');
    expect(toolResults(afterKept!).at(-1)).toMatch(/^Kept: the skill "fix-npm-ci-lockfile" is in /);
    expect(replyOf(end)).toBe('Kept the skill "fix-npm-ci-lockfile" (the first try lacked a verification section).');
    const { skills } = await request<{ skills: SkillInfo[] }>('skills.list', {});
    expect(skills.map((skill) => skill.name)).toContain('fix-npm-ci-lockfile');
    expect(skills.map((skill) => skill.name)).not.toContain('npm-lockfile-sync-draft');

    // The transcript keeps what the person typed first.
    const history = await request<{ messages: { role: string; content: { text: string }[] }[] }>('chat.history', {
      sessionKey: session,
    });
    const users = history.messages.filter((message) => message.role === 'user').map((m) => m.content[0]!.text);
    expect(users.at(-1)).toMatch(/^\/learn the lockfile fix\n/);
  });

  it('works without a focus, and anything else starting with /learn… is an ordinary message', async () => {
    product.llm.script([{ type: 'text', text: 'Nothing here is worth a skill yet.' }]);
    const end = await product.turn('learn-2', '/learn', 'agent:main:learn-empty');
    expect(replyOf(end)).toBe('Nothing here is worth a skill yet.');
    expect(product.llm.requests.at(-1)!.lastUserText).toMatch(
      /^\/learn\n\n\[\/learn: turn what this conversation taught into a skill\.\n/,
    );
    product.llm.script([{ type: 'text', text: 'ok' }]);
    await product.turn('learn-3', '/learned nothing', 'agent:main:learn-empty');
    expect(product.llm.requests.at(-1)!.lastUserText).toBe('/learned nothing');
  });
});
