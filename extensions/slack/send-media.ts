import { type ChannelOutboundFile, type ChannelTarget, fetchWithin } from '../../src-main/plugins/sdk/index.js';
import { FATAL_AUTH_ERRORS, type SlackApi, SlackApiError } from './slack-api.js';
import { toSlackMrkdwn } from './slack-mrkdwn.js';
import { type ChannelOf, SLACK_MAX_MESSAGE } from './slack-stream.js';

// Files out with Slack's external upload (https://docs.slack.dev/messaging/working-with-files):
// files.getUploadURLExternal (filename, length) gives a one-time upload URL and a file id; the
// bytes are POSTed there; files.completeUploadExternal shares the file into the chat (in the
// thread, with the caption as initial_comment). Until that last call the file is shared nowhere,
// so a failure at any step leaves nothing half-sent in the chat. files.upload is retired.

/** Slack's published limit for one uploaded file: 1 GB. */
export const SLACK_MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

export interface SlackUploader {
  api: SlackApi;
  fetch: typeof fetch;
  signal: AbortSignal;
}

/** What the person can do about a Slack error, after Slack's own word for it. */
function explain(error: unknown, name: string): Error {
  if (!(error instanceof SlackApiError)) return error instanceof Error ? error : new Error(String(error));
  const hint =
    error.error === 'missing_scope'
      ? ': the app needs the bot scope files:write (OAuth & Permissions), then reinstall it'
      : FATAL_AUTH_ERRORS.has(error.error)
        ? ': Slack refused the bot token; store a valid one with `hearth channels token slack`'
        : error.error === 'not_in_channel'
          ? ': invite the app to the channel first'
          : '';
  return new Error(`Slack did not take ${name} (${error.method}: ${error.error})${hint}; nothing was sent`);
}

/** A photo or document into the target's chat; resolves with Slack's file id. */
export async function sendSlackFile(
  uploader: SlackUploader,
  channelOf: ChannelOf,
  target: ChannelTarget,
  file: ChannelOutboundFile,
): Promise<string> {
  if (file.data.length > SLACK_MAX_UPLOAD_BYTES) throw new Error(`${file.name} is over Slack's 1 GB limit for a file`);
  const { api } = uploader;
  try {
    const ticket = await api.call<{ upload_url: string; file_id: string }>('files.getUploadURLExternal', {
      filename: file.name,
      length: file.data.length,
    });
    await postBytes(uploader, ticket.upload_url, file);
    const channel = channelOf(target);
    const caption = file.caption ? toSlackMrkdwn(file.caption) : '';
    await api.call('files.completeUploadExternal', {
      files: [{ id: ticket.file_id, title: file.name }],
      // A DM not yet seen since start is known only by the person's id, which `channels` takes.
      ...(/^[UW]/.test(channel) ? { channels: channel } : { channel_id: channel }),
      ...(target.replyToMessageId ? { thread_ts: target.replyToMessageId } : {}),
      ...(caption
        ? {
            initial_comment:
              caption.length <= SLACK_MAX_MESSAGE ? caption : `${caption.slice(0, SLACK_MAX_MESSAGE - 1)}…`,
          }
        : {}),
    });
    return ticket.file_id;
  } catch (error) {
    if (uploader.signal.aborted) throw error;
    throw explain(error, file.name);
  }
}

/**
 * The bytes, raw, to the upload URL Slack gave (it is signed for this one file, so the bot token
 * is not sent along). Slack answers 200 once it has them.
 */
async function postBytes(uploader: SlackUploader, url: string, file: ChannelOutboundFile): Promise<void> {
  const fail = (reason: string) => new SlackApiError('upload', reason, 0);
  if (!/^https?:\/\//.test(url)) throw fail('files.getUploadURLExternal gave no upload URL');
  const response = await fetchWithin(
    uploader.fetch,
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Blob([new Uint8Array(file.data)], { type: 'application/octet-stream' }),
    },
    // A minute, and a second more per megabyte: a big file on a slow link still arrives.
    { signal: uploader.signal, timeoutMs: 60_000 + Math.ceil(file.data.length / 1_048_576) * 1000, fail },
  );
  const answer = await response.text().catch(() => '');
  if (response.status !== 200)
    throw new SlackApiError('upload', `HTTP ${response.status}${answer ? ` ${answer.slice(0, 200)}` : ''}`, 0);
}
