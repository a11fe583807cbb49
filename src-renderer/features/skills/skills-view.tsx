import { useEffect, useState } from 'react';
import type { SkillInfo } from '../../../src-main/protocol/methods/skills.js';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { formatTime } from '../../ui/use-now.js';
import './skills.css';

function SkillRow({ skill }: { skill: SkillInfo }) {
  const t = useT();
  const busy = useDomain('skills', (s) => s.busy.includes(skill.name));
  const { skills } = useStores();
  const { read, setEnabled, setPinned } = skills.getState();
  return (
    <li className="card skill-row" data-testid="skill-row" aria-label={skill.name}>
      <div className="spread">
        <strong>{skill.name}</strong>
        <span className="faint">
          {t(`skills.origin.${skill.origin}`)}
          {skill.hasScripts && ` · ${t('skills.scripts')}`}
          {skill.stale && ` · ${t('skills.stale')}`}
        </span>
      </div>
      <p className="muted">{skill.description}</p>
      <p className="faint">
        {t('skills.uses', { n: skill.uses })}
        {skill.lastUsedAt !== undefined && ` · ${t('skills.lastUsed', { when: formatTime(skill.lastUsedAt) })}`}
      </p>
      <div className="row">
        <label>
          <input
            type="checkbox"
            checked={skill.enabled}
            disabled={busy}
            onChange={(event) => void setEnabled(skill.name, event.target.checked)}
          />{' '}
          {t('skills.enabled')}
        </label>
        <button type="button" disabled={busy} onClick={() => void setPinned(skill.name, !skill.pinned)}>
          {skill.pinned ? t('skills.unpin') : t('skills.pin')}
        </button>
        <button type="button" onClick={() => void read(skill.name)}>
          {t('skills.read')}
        </button>
      </div>
    </li>
  );
}

/** Skills: what each agent may read, how often it did, the ones it proposed waiting for approval (docs/TOOLS.md "Skills"). */
export function SkillsView() {
  const t = useT();
  const { skills: store } = useStores();
  const { agentId, skills, proposals, open, error, loaded } = useDomain('skills', (s) => s);
  const [agentDraft, setAgentDraft] = useState(agentId);
  useEffect(() => {
    void store.getState().refresh();
  }, [store]);
  const { setAgent, decide, close } = store.getState();
  return (
    <div className="skills-view">
      <h1>{t('skills.title')}</h1>
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          if (agentDraft.trim()) void setAgent(agentDraft.trim());
        }}
      >
        <label>
          {t('skills.agent')} <input value={agentDraft} onChange={(event) => setAgentDraft(event.target.value)} />
        </label>
        <button type="submit">{t('skills.show')}</button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {proposals.length > 0 && (
        <section aria-label={t('skills.proposed')}>
          <h2>{t('skills.proposed')}</h2>
          <ul className="skill-list">
            {proposals.map((proposal) => (
              <li key={proposal.id} className="card skill-row" data-testid="skill-proposal">
                <strong>{proposal.name}</strong> <span className="faint">({proposal.agentId})</span>
                <p className="muted">{proposal.description}</p>
                <p className="faint">{proposal.reasons.join('; ')}</p>
                {proposal.files.length > 0 && <p className="faint">{proposal.files.join(', ')}</p>}
                <div className="row">
                  <button type="button" onClick={() => void decide(proposal.id, 'approve')}>
                    {t('skills.approve')}
                  </button>
                  <button type="button" onClick={() => void decide(proposal.id, 'reject')}>
                    {t('skills.reject')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-label={t('skills.installed')}>
        <h2>{t('skills.installed')}</h2>
        {loaded && skills.length === 0 && <p className="muted">{t('skills.none')}</p>}
        <ul className="skill-list">
          {skills.map((skill) => (
            <SkillRow key={skill.name} skill={skill} />
          ))}
        </ul>
      </section>
      {open && (
        <section className="card" aria-label={open.name}>
          <div className="spread">
            <h2>{open.name}</h2>
            <button type="button" onClick={close}>
              {t('skills.close')}
            </button>
          </div>
          <pre className="skill-text">{open.text}</pre>
        </section>
      )}
    </div>
  );
}
