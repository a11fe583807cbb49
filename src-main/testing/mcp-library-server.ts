import { fileURLToPath } from 'node:url';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

/**
 * Test support (never shipped): a real MCP server built with the SDK, run as a stdio child
 * (`node --import tsx mcp-library-server.ts`), that offers resources and prompts besides a tool.
 *
 * Resources: `library://readme` (text), `library://logo.png` (a PNG blob), the template
 * `library://notes/{id}`. Tool `shelve {name, text}` adds a resource `library://shelf/<name>`
 * (the SDK then sends `notifications/resources/list_changed`). Prompts: `summarize {topic, style?}`
 * and `greet` (no arguments).
 */
export function createLibraryMcpServer(): McpServer {
  const server = new McpServer({ name: 'hearth-library', version: '1.0.0' });
  server.registerResource(
    'readme',
    'library://readme',
    { title: 'Read me', description: 'What the library holds', mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# Library\nTwo shelves.' }] }),
  );
  server.registerResource('logo', 'library://logo.png', { mimeType: 'image/png' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'image/png', blob: Buffer.from('PNGDATA!').toString('base64') }],
  }));
  server.registerResource(
    'note',
    new ResourceTemplate('library://notes/{id}', { list: undefined }),
    { description: 'A note by its number' },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: `note number ${id}` }] }),
  );
  server.registerTool(
    'shelve',
    { description: 'Add a text resource to the shelf', inputSchema: { name: z.string(), text: z.string() } },
    async ({ name, text }) => {
      server.registerResource(`shelf-${name}`, `library://shelf/${name}`, { mimeType: 'text/plain' }, async (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text }],
      }));
      return { content: [{ type: 'text', text: `shelved ${name}` }] };
    },
  );
  server.registerPrompt(
    'summarize',
    {
      title: 'Summarize',
      description: 'Ask for a summary of a topic',
      argsSchema: { topic: z.string().describe('what to summarize'), style: z.string().optional() },
    },
    ({ topic, style }) => ({
      description: `Summary of ${topic}`,
      messages: [
        { role: 'user', content: { type: 'text', text: `Summarize ${topic}${style ? ` in a ${style} style` : ''}.` } },
      ],
    }),
  );
  server.registerPrompt('greet', { description: 'Say hello' }, () => ({
    messages: [
      { role: 'user', content: { type: 'text', text: 'Hello!' } },
      {
        role: 'assistant',
        content: { type: 'image', data: Buffer.from('GIF').toString('base64'), mimeType: 'image/gif' },
      },
    ],
  }));
  return server;
}

export const libraryMcpServerPath = fileURLToPath(import.meta.url);

/** `command` + `args` of an `mcp.servers` entry that runs this server over stdio. */
export function libraryMcpServerCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import', 'tsx', libraryMcpServerPath] };
}

if (process.argv[1] === libraryMcpServerPath) {
  await createLibraryMcpServer().connect(new StdioServerTransport());
}
