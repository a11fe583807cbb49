import { CANVAS_EMPTY_MESSAGE } from '../protocol/methods/canvas.js';

/**
 * What the canvas route answers when the agent has not written the file asked for (at first, the
 * folder is empty): a small page a person can read, never a JSON 404. It follows the theme the
 * app asks for (`?theme=dark|light`), else the OS, and tells the app it is the empty page
 * (`hearth.canvas.empty`) so the Control UI can show its own explanation in the person's language.
 */

export function canvasEmptyPage(theme: string | null): string {
  const scheme = theme === 'dark' || theme === 'light' ? theme : 'light dark';
  return `<!doctype html>
<html lang="en" style="color-scheme:${scheme}">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Canvas</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;font:15px/1.5 system-ui,sans-serif;
background:light-dark(#f7f7f5,#161615);color:light-dark(#1d1d1b,#ecece8)}
main{max-width:28rem;padding:2rem;text-align:center}
h1{font-size:1.15rem;margin:0 0 .5rem}
p{margin:0;color:light-dark(#6b6b66,#a3a39c)}
</style>
<main>
<h1>Nothing on the canvas yet</h1>
<p>The agent draws pages here when you ask for one in the chat: a chart, a table, a small app.</p>
</main>
<script>parent!==window&&parent.postMessage({type:${JSON.stringify(CANVAS_EMPTY_MESSAGE)}},'*')</script>
</html>`;
}
