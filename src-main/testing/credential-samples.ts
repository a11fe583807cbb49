/**
 * Credentials in each provider's real format, made up (random letters, right prefixes and
 * lengths): the class every redaction test runs through (never shipped).
 */
export const CREDENTIALS: [format: string, secret: string][] = [
  ['OpenAI legacy', 'sk-4fGh7JkL9mNpQrStUvWxYz0123456789AbCdEfGhIjKlMn'],
  ['OpenAI project', 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34'],
  ['OpenAI service account', 'sk-svcacct-Zy98Xw76Vu54Ts32Rq10Po98Nm76'],
  ['Anthropic', 'sk-ant-api03-Qw3rTy7uIo9pAs1dFg5hJk2lZx8cVb4nM6_AbCdEf-GhIjKlMnOp'],
  ['Anthropic admin', 'sk-ant-admin01-AbCdEfGhIjKlMnOpQrStUv'],
  ['OpenRouter', 'sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef'],
  ['Telegram bot', '7213456890:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1'],
  ['Telegram bot, short id', '123456:AAFk2lQwErTyUiOpAsDfGhJkLzXcVbNm123'],
  ['Slack bot', 'xoxb-2934567812-4856729103-AbCdEfGhIjKlMnOpQrStUvWx'],
  ['Slack user', 'xoxp-2934567812-4856729103-1234567890-abcdef0123456789'],
  ['Slack app', 'xoxa-2-AbCdEfGhIjKlMnOp'],
  ['GitHub classic', 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
  ['GitHub OAuth', 'gho_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
  ['GitHub fine-grained', 'github_pat_11ABCDEFG0123456789_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQr'],
  ['GitLab', 'glpat-AbCdEfGhIjKlMnOpQrSt'],
  ['AWS access key', 'AKIAIOSFODNN7EXAMPLE'],
  ['AWS temporary key', 'ASIAY34FZKBOKMUTVV7A'],
  ['Google API key', 'AIzaSyA1234567890abcdefghijklmnopqrstu'],
  ['Google OAuth token', 'ya29.a0AfH6SMBx-AbCdEfGhIjKlMnOpQrStUvWxYz'],
  ['Stripe', 'sk_live_51HabcdEfGhIjKlMnOpQrStUv'],
  ['Hugging Face', 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345'],
  ['Groq', 'gsk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
  ['npm', 'npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
  [
    'JWT',
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  ],
  ['Discord bot', 'MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.AbCdEfGhIjKlMnOpQrStUvWxYz0123'],
];
