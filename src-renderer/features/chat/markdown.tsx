import { memo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import { highlight } from './highlight.js';
import './markdown.css';

function CodeBlock({ code, language }: { code: string; language: string }) {
  return (
    <pre className="code-block" data-language={language || undefined}>
      {language && <span className="code-lang">{language}</span>}
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
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
};

/** Assistant text as markdown; raw HTML is not rendered (react-markdown's default), so model output cannot inject markup. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown components={components}>{text}</ReactMarkdown>
    </div>
  );
});
