import { type ChannelAttachment, downloadAttachments } from '../../src-main/plugins/sdk/index.js';

/** Largest file the channel downloads for the model; a bigger one is named in the text instead. */
export const MAX_SLACK_FILE_BYTES = 5 * 1024 * 1024;

/** A file a Slack message carries (https://api.slack.com/types/file), the fields the channel reads. */
export interface SlackFileRef {
  name: string;
  mediaType: string;
  size?: number;
  url: string;
}

export function fileRefsOf(files: unknown): SlackFileRef[] {
  if (!Array.isArray(files)) return [];
  const refs: SlackFileRef[] = [];
  for (const file of files as Record<string, unknown>[]) {
    const url = file?.url_private_download ?? file?.url_private;
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) continue;
    refs.push({
      name: typeof file.name === 'string' ? file.name : 'a file',
      mediaType: typeof file.mimetype === 'string' ? file.mimetype : 'application/octet-stream',
      ...(typeof file.size === 'number' ? { size: file.size } : {}),
      url,
    });
  }
  return refs;
}

/**
 * Downloads a message's files with the bot token (Slack's private file URLs need it; scope
 * `files:read`). A file over the cap, or one that cannot be fetched, is named in a note instead.
 * The token is sent only to the host the Web API lives on or Slack's file host, never elsewhere.
 */
export function downloadSlackFiles(
  refs: readonly SlackFileRef[],
  options: { token: string; fetch: typeof fetch; signal: AbortSignal; trustedHosts: readonly string[] },
): Promise<{ attachments: ChannelAttachment[]; notes: string[] }> {
  return downloadAttachments(refs, {
    maxBytes: MAX_SLACK_FILE_BYTES,
    download: async (ref) => {
      const host = new URL(ref.url).host;
      if (!options.trustedHosts.includes(host)) throw new Error(`not a Slack file URL (${host})`);
      const response = await options.fetch(ref.url, {
        headers: { authorization: `Bearer ${options.token}` },
        signal: AbortSignal.any([options.signal, AbortSignal.timeout(60_000)]),
      });
      if (!response.ok) throw new Error(`download answered ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.length > MAX_SLACK_FILE_BYTES) throw new Error(`it is ${bytes.length} bytes, over the cap`);
      return bytes;
    },
  });
}
