import { jsonl, writeTree } from './fixture-tree.js';

export const hermesKeys = {
  openrouter: 'sk-or-fixture-hermes-0000000000000011',
  anthropic: 'sk-ant-fixture-hermes-000000000000012',
  custom: 'sk-fixture-hermes-custom-00000000000013',
};

export const hermesSessionIds = { cli: '20260511_203108_a1b2c3', telegram: '20260512_081500_d4e5f6' };

/**
 * A ~/.hermes in Hermes Agent's real layout: config.yaml, .env with keys, SOUL.md,
 * memories/{MEMORY,USER}.md, sessions/{sessions.json,<id>.jsonl}, state.db, cron/jobs.json and
 * one profile under profiles/. `malformed` makes config.yaml invalid YAML and tears a transcript line.
 */
export async function writeHermesFixture(root: string, options: { malformed?: boolean } = {}): Promise<void> {
  await writeTree(root, {
    'config.yaml': options.malformed
      ? 'model:\n  default: "anthropic/claude-opus-4\n  provider: [openrouter\n'
      : [
          'model:',
          '  default: anthropic/claude-opus-4',
          '  provider: openrouter',
          'fallback_model:',
          '  provider: anthropic',
          '  model: claude-sonnet-4',
          'terminal:',
          '  backend: local',
          'command_allowlist:',
          '  - recursive delete',
          'custom_providers:',
          '  - name: lab-vllm',
          '    base_url: http://10.0.0.5:8000/v1',
          `    api_key: ${hermesKeys.custom}`,
          '',
        ].join('\n'),
    '.env': [
      '# Hermes secrets',
      `OPENROUTER_API_KEY=${hermesKeys.openrouter}`,
      `export ANTHROPIC_API_KEY="${hermesKeys.anthropic}"`,
      'TELEGRAM_BOT_TOKEN=123:telegram-fixture',
      '',
    ].join('\n'),
    'SOUL.md': '# Hermes soul\nCurious and kind.\n',
    'memories/MEMORY.md': 'Ada uses Debian.\n§\nThe build runs on Fridays.\n',
    'memories/USER.md': 'Ada, a backend engineer in Lisbon.\n',
    'sessions/sessions.json': `${JSON.stringify({
      'agent:main:telegram:dm:207': {
        session_id: hermesSessionIds.telegram,
        display_name: 'Ada (Telegram)',
        platform: 'telegram',
      },
    })}\n`,
    [`sessions/${hermesSessionIds.cli}.jsonl`]:
      jsonl(
        {
          role: 'session_meta',
          tools: [],
          model: 'anthropic/claude-opus-4',
          platform: 'cli',
          title: 'Disk usage',
          timestamp: '2026-05-11T20:31:08.015498',
        },
        { role: 'user', content: 'How full is my disk?', timestamp: '2026-05-11T20:31:09' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'terminal', arguments: '{"command":"df -h"}' } },
          ],
          timestamp: '2026-05-11T20:31:10',
        },
        { role: 'tool', tool_call_id: 'call_a', content: '/dev/sda1 40% used', timestamp: '2026-05-11T20:31:11' },
        { role: 'assistant', content: 'Your disk is 40% full.', timestamp: '2026-05-11T20:31:12' },
      ) + (options.malformed ? '{"role": "user", "content": "torn\n' : ''),
    [`sessions/${hermesSessionIds.telegram}.jsonl`]: jsonl(
      {
        role: 'session_meta',
        tools: [],
        model: 'anthropic/claude-opus-4',
        platform: 'telegram',
        timestamp: '2026-05-12T08:15:00',
      },
      { role: 'user', content: [{ type: 'text', text: 'Good morning' }], timestamp: '2026-05-12T08:15:01' },
      { role: 'assistant', content: 'Morning, Ada!', timestamp: '2026-05-12T08:15:02' },
    ),
    // Newer Hermes keeps sessions in SQLite; these bytes only need to exist.
    'state.db': 'SQLite format 3\u0000',
    'cron/jobs.json': `${JSON.stringify(
      {
        jobs: [
          {
            id: 'a1b2c3d4e5f6',
            name: 'Daily standup notes',
            prompt: 'Summarise yesterday',
            schedule: { kind: 'cron', expr: '0 9 * * 1-5', display: '0 9 * * 1-5' },
            repeat: { times: null, completed: 3 },
            enabled: true,
            deliver: 'origin',
            origin: { platform: 'telegram', chat_id: '207' },
          },
          {
            id: 'b2c3d4e5f6a1',
            name: 'Stretch',
            prompt: 'Remind me to stretch',
            schedule: { kind: 'interval', minutes: 90, display: 'every 90m' },
            enabled: true,
            deliver: 'local',
          },
        ],
        updated_at: '2026-05-12T08:00:00',
      },
      null,
      2,
    )}\n`,
    'profiles/work/config.yaml': 'model: anthropic/claude-sonnet-4\n',
    'profiles/work/SOUL.md': '# Work soul\nFormal and precise.\n',
    'profiles/work/memories/MEMORY.md': 'Quarterly review in June.\n',
  });
}
