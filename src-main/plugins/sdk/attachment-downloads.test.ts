import { describe, expect, it } from 'vitest';
import { type AttachmentRef, downloadAttachments } from './attachment-downloads.js';

// Files that came with a message reach the model; what could not be read is named to it instead.

const MB = 1024 * 1024;

describe('downloadAttachments', () => {
  it('hands files to the model as base64, images by their media type', async () => {
    const refs: AttachmentRef[] = [
      { name: 'cat.png', mediaType: 'image/png' },
      { name: 'notes.txt', mediaType: 'text/plain', size: 5 },
    ];
    const result = await downloadAttachments(refs, {
      maxBytes: MB,
      download: async (ref) => new TextEncoder().encode(`bytes of ${ref.name}`),
    });
    expect(result.notes).toEqual([]);
    expect(result.attachments).toEqual([
      {
        kind: 'image',
        mediaType: 'image/png',
        name: 'cat.png',
        data: Buffer.from('bytes of cat.png').toString('base64'),
      },
      {
        kind: 'file',
        mediaType: 'text/plain',
        name: 'notes.txt',
        data: Buffer.from('bytes of notes.txt').toString('base64'),
      },
    ]);
  });

  it('names a file over the cap without fetching it, and one that could not be fetched', async () => {
    const fetched: string[] = [];
    const result = await downloadAttachments(
      [
        { name: 'huge.mov', mediaType: 'video/quicktime', size: 50 * MB },
        { mediaType: 'image/jpeg', kind: 'image' },
        { name: 'gone.pdf', mediaType: 'application/pdf' },
      ],
      {
        maxBytes: 5 * MB,
        download: async (ref) => {
          fetched.push(ref.name ?? 'photo');
          if (ref.name === 'gone.pdf') throw new Error('download answered 404');
          return new Uint8Array(6 * MB);
        },
        describe: (error) => `it failed (${(error as Error).message})`,
      },
    );
    expect(fetched).toEqual(['photo', 'gone.pdf']);
    expect(result.attachments).toEqual([]);
    expect(result.notes).toEqual([
      '[huge.mov was attached, but it is over 5 MB and was not read]',
      `[a photo was attached, but it could not be downloaded: it failed (it is ${6 * MB} bytes, over ${5 * MB})]`,
      '[gone.pdf was attached, but it could not be downloaded: it failed (download answered 404)]',
    ]);
  });
});
