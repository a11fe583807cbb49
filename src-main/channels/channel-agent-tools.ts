import type { ChannelAgentTool, ChannelConversation, ChannelPlugin, ToolDefinition } from '../plugins/sdk/index.js';

/**
 * The tools of a channel a person enabled (`channels.<id>.agentTools`: `true` for all, or a list
 * of names), among those the running account offers. Off by default.
 */
export function enabledAgentTools(
  setting: boolean | readonly string[],
  offered: readonly ChannelAgentTool[] | undefined,
): ChannelAgentTool[] {
  if (setting === false || !offered) return [];
  return setting === true ? [...offered] : offered.filter((tool) => setting.includes(tool.name));
}

/** An `agentTools` list naming a tool the plugin does not declare: the error names it and the ones there are. */
export function checkAgentToolNames(channelId: string, plugin: ChannelPlugin, setting: boolean | readonly string[]) {
  if (typeof setting === 'boolean') return;
  const declared = (plugin.agentTools?.tools ?? []).map((tool) => tool.name);
  for (const name of setting) {
    if (!declared.includes(name))
      throw new Error(
        `channels.${channelId}.agentTools: ${plugin.meta.name} has no tool "${name}" (${declared.length > 0 ? `its tools: ${declared.join(', ')}` : 'it offers none'})`,
      );
  }
}

/**
 * A channel's enabled tools as the model's tools for one session's run. Each acts on the
 * conversation the session is on, looked up again at call time (`conversation()`: undefined once
 * the session is no longer on this channel, or the channel stopped), never on a chat the model
 * names: the tools take no chat id, and a message id of another chat is refused by the plugin.
 */
export function channelToolDefinitions(input: {
  channelId: string;
  channelName: string;
  sessionKey: string;
  tools: readonly ChannelAgentTool[];
  conversation(): { conversation: ChannelConversation; tools: readonly ChannelAgentTool[] } | undefined;
}): ToolDefinition[] {
  const { channelId, channelName, sessionKey } = input;
  return input.tools.map((tool): ToolDefinition => {
    const name = `${channelId}_${tool.name}`;
    return {
      name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      source: 'channel',
      promptLine: `This conversation is on ${channelName}: ${name} ${lowerFirst(oneSentence(tool.description))}`,
      async execute(args, context) {
        if (context.sessionKey !== sessionKey)
          return { output: `${name} acts only on the ${channelName} conversation it was given to`, isError: true };
        const now = input.conversation();
        // The same tool, as the account runs it now (a restart binds a new connection).
        const live = now?.tools.find((candidate) => candidate.name === tool.name);
        if (!now || !live)
          return {
            output: `${name} is not available: this session is no longer on a running ${channelName} chat with that tool enabled`,
            isError: true,
          };
        try {
          return { output: await live.execute(args, now.conversation, context.signal) };
        } catch (error) {
          return { output: `${name} failed: ${error instanceof Error ? error.message : String(error)}`, isError: true };
        }
      },
    };
  });
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
const oneSentence = (text: string) => /^(.+?[.!?])(\s|$)/.exec(text.trim())?.[1] ?? text.trim();
