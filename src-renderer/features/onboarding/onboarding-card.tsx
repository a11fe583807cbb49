import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { ImportOffer } from './import-offer.js';
import './onboarding.css';

/** First run: no model can answer yet, so say how to get one before the user types into the void. */
export function OnboardingCard() {
  const t = useT();
  const { auth, ui } = useStores();
  const connected = useDomain('connection', (s) => s.connection.status === 'connected');
  const hasModels = useDomain('chat', (s) => s.models.some((m) => m.available));
  const hasProfiles = useDomain('auth', (s) => s.profiles.length > 0);
  const ollama = useDomain('auth', (s) => s.ollama);
  const dismissed = useDomain('ui', (s) => s.onboardingDismissed);
  // An import under review keeps the card open even once its keys made a model available.
  const importing = useDomain('imports', (s) => s.report !== undefined);
  if (!connected || dismissed || ((hasModels || hasProfiles) && !importing)) return null;
  return (
    <section className="onboarding card" aria-labelledby="onboarding-title">
      <div className="brand-mark" aria-hidden="true" />
      <div className="stack">
        <h2 id="onboarding-title">{t('onboarding.title')}</h2>
        <p className="muted">{t('onboarding.body')}</p>
        <div className="row" style={{ flexWrap: 'wrap' }}>
          <button type="button" className="button primary" onClick={() => ui.getState().navigate('auth')}>
            {t('onboarding.addKey')}
          </button>
          <button type="button" className="button" onClick={() => void auth.getState().detectOllama()}>
            {t('onboarding.detectOllama')}
          </button>
          <button type="button" className="button ghost" onClick={() => ui.getState().dismissOnboarding()}>
            {t('onboarding.skip')}
          </button>
        </div>
        {ollama && (
          <p role="status" className={ollama.running ? 'badge ok' : 'badge warn'}>
            {ollama.running ? t('onboarding.ollamaFound', { n: ollama.models.length }) : t('onboarding.ollamaMissing')}
          </p>
        )}
        <ImportOffer />
        <p className="faint">{t('onboarding.templates')}</p>
      </div>
    </section>
  );
}
