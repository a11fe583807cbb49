import { memo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CopyButton } from './copy-button.js';
import { highlight } from './highlight.js';
import './markdown.css';

function CodeBlock({ code, language }: { code: string; language: string }) {
  return (
    <div className="code-block-wrap">
      <div className="code-bar">
        <span className="code-lang">{language || 'text'}</span>
        <CopyButton text={code} className="button small ghost code-copy" />
      </div>
      <pre className="code-block" data-language={language || undefined}>
        <code>
          {highlight(code, language).map((token, i) =>
            token.kind === 'plain' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: tokens are positional and never reorder
              <span key={i}>{token.text}</span>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: tokens are positional and never reorder
              <span key={i} className={`tok-${token.kind}`}>
                {token.text}
              </span>
            ),
          )}
        </code>
      </pre>
    </div>
  );
}

const components: Components = {
  pre: ({ children }) => <>{children}</>,
  code({ className, children }) {
    const text = String(children ?? '');
    const language = /language-([\w+-]+)/.exec(className ?? '')?.[1] ?? '';
    const block = language !== '' || text.includes('\n');
    if (!block) return <code className="code-inline">{children}</code>;
    return <CodeBlock code={text.replace(/\n$/, '')} language={language} />;
  },
  // Wide tables scroll on their own instead of widening the message.
  table: ({ children }) => (
    <div className="table-wrap">
      <table>{children}</table>
    </div>
  ),
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
};

/** GitHub-flavoured markdown (tables, task lists, strikethrough, autolinks) for what the model writes. */
const plugins = [remarkGfm];

/** Assistant text as markdown; raw HTML is not rendered (react-markdown's default), so model output cannot inject markup. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown components={components} remarkPlugins={plugins}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
