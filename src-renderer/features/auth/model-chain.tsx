import { useEffect, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';

const split = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/**
 * Order and fallbacks: which profile of a provider is tried first, and which models answer when
 * the primary fails. Saved through config.patch, so the gateway validates and names any problem.
 */
export function ModelChain() {
  const t = useT();
  const { auth } = useStores();
  const primary = useDomain('auth', (s) => s.primary);
  const fallbacks = useDomain('auth', (s) => s.fallbacks);
  const profiles = useDomain('auth', (s) => s.profiles);
  const [fallbackText, setFallbackText] = useState('');
  const [orders, setOrders] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState<string | undefined>();

  useEffect(() => {
    void auth.getState().loadModelChain();
  }, [auth]);
  useEffect(() => setFallbackText(fallbacks.join(', ')), [fallbacks]);

  const providers = [...new Set(profiles.map((p) => p.provider))].sort();
  const orderText = (provider: string) =>
    orders[provider] ??
    profiles
      .filter((p) => p.provider === provider)
      .map((p) => p.id)
      .join(', ');

  return (
    <section className="card stack model-chain" aria-labelledby="model-chain-title">
      <h2 id="model-chain-title">{t('auth.chain')}</h2>
      <p className="faint">{t('auth.chainPrimary', { model: primary ?? t('auth.chainNoPrimary') })}</p>
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          void auth
            .getState()
            .saveFallbacks(split(fallbackText))
            .then((ok) => setSaved(ok ? t('auth.chainSaved') : undefined));
        }}
      >
        <label className="grow">
          {t('auth.fallbacks')}
          <input
            className="input"
            value={fallbackText}
            placeholder="anthropic/claude-sonnet-4-5, ollama/llama3.2"
            onChange={(e) => setFallbackText(e.target.value)}
          />
        </label>
        <button type="submit" className="button">
          {t('auth.saveFallbacks')}
        </button>
      </form>
      {providers.map((provider) => (
        <form
          key={provider}
          className="row"
          onSubmit={(event) => {
            event.preventDefault();
            void auth
              .getState()
              .saveOrder(provider, split(orderText(provider)))
              .then((ok) => setSaved(ok ? t('auth.chainSaved') : undefined));
          }}
        >
          <label className="grow">
            {t('auth.order', { provider })}
            <input
              className="input"
              value={orderText(provider)}
              onChange={(e) => setOrders((current) => ({ ...current, [provider]: e.target.value }))}
            />
          </label>
          <button type="submit" className="button">
            {t('auth.saveOrder')}
          </button>
        </form>
      ))}
      {saved && (
        <p className="faint" role="status">
          {saved}
        </p>
      )}
    </section>
  );
}
