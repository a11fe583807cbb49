import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { ImportOffer } from './import-offer.js';
import { ProviderSetup } from './provider-setup.js';
import './onboarding.css';

/** First run: no model can answer yet, so set one up here before the user types into the void. */
export function OnboardingCard() {
  const t = useT();
  const { auth, setup, ui } = useStores();
  const connected = useDomain('connection', (s) => s.connection.status === 'connected');
  const hasModels = useDomain('chat', (s) => s.models.some((m) => m.available));
  const hasProfiles = useDomain('auth', (s) => s.profiles.length > 0);
  const ollama = useDomain('auth', (s) => s.ollama);
  const dismissed = useDomain('ui', (s) => s.onboardingDismissed);
  const saved = useDomain('setup', (s) => s.saved);
  // An import under review keeps the card open even once its keys made a model available.
  const importing = useDomain('imports', (s) => s.report !== undefined);
  if (!connected || dismissed) return null;
  if (saved) {
    // The config change reaches the picker by itself; this only confirms what was saved.
    return (
      <section className="onboarding card" aria-labelledby="onboarding-title">
        <div className="brand-mark" aria-hidden="true" />
        <div className="stack">
          <h2 id="onboarding-title">{t('setup.savedTitle')}</h2>
          <p role="status">{t('setup.saved', { model: saved.primary })}</p>
          <div className="row">
            <button type="button" className="button primary" onClick={() => ui.getState().dismissOnboarding()}>
              {t('setup.start')}
            </button>
          </div>
        </div>
      </section>
    );
  }
  if ((hasModels || hasProfiles) && !importing) return null;
  return (
    <section className="onboarding card" aria-labelledby="onboarding-title">
      <div className="brand-mark" aria-hidden="true" />
      <div className="stack">
        <h2 id="onboarding-title">{t('onboarding.title')}</h2>
        <p className="muted">{t('onboarding.body')}</p>
        <ProviderSetup />
        <ImportOffer />
        <div className="row onboarding-more">
          <button type="button" className="button ghost small" onClick={() => ui.getState().navigate('auth')}>
            {t('onboarding.addKey')}
          </button>
          <button
            type="button"
            className="button ghost small"
            onClick={() => {
              void auth.getState().detectOllama();
              void setup.getState().detect();
            }}
          >
            {t('onboarding.detectOllama')}
          </button>
          <button type="button" className="button ghost small" onClick={() => ui.getState().dismissOnboarding()}>
            {t('onboarding.skip')}
          </button>
        </div>
        {ollama && (
          <p role="status" className={ollama.running ? 'badge ok' : 'badge warn'}>
            {ollama.running ? t('onboarding.ollamaFound', { n: ollama.models.length }) : t('onboarding.ollamaMissing')}
          </p>
        )}
        <p className="faint">{t('onboarding.templates')}</p>
      </div>
    </section>
  );
}
