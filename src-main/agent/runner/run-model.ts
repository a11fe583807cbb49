import {
  type AuthProfile,
  AuthProfileError,
  classifyFailure,
  describeFailoverReason,
  FailoverError,
  type FailoverReason,
  formatModelRef,
  type ModelRef,
} from '../../providers/index.js';
import { addUsage, zeroUsage } from '../loop/loop-events.js';
import type { Usage } from '../messages.js';
import { contextUsage, runAttempt, sleep } from './run-attempt.js';
import {
  maxOverflowCompactions,
  type RunnerDeps,
  type TurnOutcome,
  type TurnRequest,
  timeoutCompactionUsage,
} from './runner-types.js';

/** A live model switch asked for before anything visible happened. */
export interface ModelSwitch {
  status: 'switch';
  to: string;
}

/**
 * The run for one model: attempts (one full loop turn each) until success or policy says
 * stop. Each iteration checks, in order: aborted → live model switch → timed out with
 * ≥ 65% context used → context overflow → assistant error (refresh auth / back off /
 * rotate profile / raise) → success. Provider failures end as a FailoverError so the
 * caller can fall back to the next model.
 */
export async function runModel(
  deps: RunnerDeps,
  request: TurnRequest,
  ref: ModelRef,
): Promise<TurnOutcome | ModelSwitch> {
  const modelRef = formatModelRef(ref);
  let usage: Usage = zeroUsage();
  let profile: AuthProfile | undefined;
  const { service } = deps.models.provider(ref.provider);
  const limits = deps.catalog.limits(ref);
  const allProfiles = deps.auth.profilesFor(ref.provider);
  const needsProfile = service.requiresCredential || allProfiles.length > 0;
  const switchTo = request.liveModel?.();
  if (switchTo && switchTo !== modelRef) return { status: 'switch', to: switchTo };
  if (needsProfile && allProfiles.length === 0) {
    return failed(
      new FailoverError('auth', `no auth profile for provider "${ref.provider}": add one with "hearth auth set"`, {
        provider: ref.provider,
        model: ref.model,
      }),
    );
  }
  const maxWaitMs = deps.maxWaitMs ?? 30_000;
  const iterationCap = 4 + 3 * Math.max(1, allProfiles.length);
  const tried = new Set<string>();
  const refreshed = new Set<string>();
  let overflowCompactions = 0;
  let truncated = false;
  let backoffs = 0;
  let waits = 0;
  let lastFailure: FailoverError | undefined;

  const pickProfile = (): AuthProfile | undefined => {
    const now = deps.clock.now();
    return deps.auth
      .order(ref.provider, request.preferredProfile)
      .find((p) => !tried.has(p.id) && (deps.auth.soonestCooldownEnd([p]) ?? 0) <= now);
  };

  if (needsProfile) profile = pickProfile();

  for (let iteration = 0; iteration < iterationCap; iteration++) {
    if (request.signal.aborted)
      return { status: 'aborted', messages: [], usage, model: modelRef, stopReason: 'aborted' };
    const wanted = request.liveModel?.();
    if (wanted && wanted !== modelRef) return { status: 'switch', to: wanted };

    if (needsProfile && !profile) {
      // Everyone is cooling down or spent: wait for the soonest cooldown once if it is near, else give up.
      const soonest = deps.auth.soonestCooldownEnd(deps.auth.profilesFor(ref.provider));
      const waitMs = soonest === undefined ? undefined : soonest - deps.clock.now();
      if (waitMs !== undefined && waitMs <= maxWaitMs && waits === 0) {
        waits++;
        // The reason is the waited-for profile's own: in a new turn (a Retry) there is no last failure
        // of this turn, and a guess would tell the person "rate limited" when it was not.
        const reason = lastFailure?.reason ?? soonestCooldownReason(deps, ref) ?? 'unknown';
        request.onEvent({ type: 'retry', model: modelRef, reason, waitMs });
        if (!(await sleep(deps, waitMs, request.signal))) continue;
        tried.clear();
        profile = pickProfile();
        if (profile) continue;
      }
      return failed(exhausted(deps, ref, lastFailure));
    }

    request.onEvent({ type: 'attempt', model: modelRef, profileId: profile?.id, iteration });
    let credential: Awaited<ReturnType<typeof deps.auth.credential>> | undefined;
    if (profile) {
      try {
        credential = await deps.auth.credential(profile);
      } catch (error) {
        if (!(error instanceof AuthProfileError)) throw error;
        deps.log.warn('auth profile unusable', { profileId: profile.id, error: error.message });
        lastFailure = new FailoverError('auth', error.message, {
          provider: ref.provider,
          model: ref.model,
          profileId: profile.id,
        });
        tried.add(profile.id);
        profile = pickProfile();
        continue;
      }
      deps.auth.markUsed(profile.id);
    }
    const model = deps.models.create(ref, credential);
    const attempt = await runAttempt(deps, request, model, modelRef, profile, limits);
    usage = addUsage(usage, attempt.result.usage);
    const { result } = attempt;

    if (result.status === 'ok') {
      if (profile) await deps.auth.markSuccess(profile.id);
      return {
        status: 'ok',
        messages: result.messages,
        usage,
        model: modelRef,
        profileId: profile?.id,
        stopReason: result.stopReason,
      };
    }
    if (result.status === 'aborted' && !attempt.timedOut) {
      return {
        status: 'aborted',
        messages: result.messages,
        usage,
        model: modelRef,
        profileId: profile?.id,
        stopReason: 'aborted',
      };
    }

    const classified = attempt.timedOut
      ? {
          reason: 'timeout' as FailoverReason,
          message: `no answer within ${request.timeoutMs} ms`,
          retryAfterMs: undefined,
          status: undefined,
        }
      : classifyFailure(result.error, deps.clock.now());
    const failure = new FailoverError(
      classified.reason,
      `${modelRef}: ${describeFailoverReason(classified.reason)} (${classified.message})`,
      {
        provider: ref.provider,
        model: ref.model,
        profileId: profile?.id,
        status: classified.status,
        retryAfterMs: classified.retryAfterMs,
        cause: result.error,
      },
    );
    lastFailure = failure;
    deps.log.warn('model attempt failed', {
      model: modelRef,
      profileId: profile?.id,
      reason: failure.reason,
      detail: classified.message,
    });

    // Text already reached the user or a tool ran: retrying would repeat it, so the turn ends here.
    // A stream that broke off (timeout) after output proved the credential works: cooling the profile
    // down would make the person's Retry wait ~30 s for nothing, so only credential failures count.
    if (result.sideEffects) {
      if (profile && profileReasons.has(failure.reason) && failure.reason !== 'timeout')
        await deps.auth.markFailure(profile.id, failure.reason, failure.retryAfterMs);
      return { ...failed(failure), messages: result.messages, profileId: profile?.id };
    }

    if (attempt.timedOut) {
      if (contextUsage(request, limits.contextWindow) >= timeoutCompactionUsage && request.hooks?.compact) {
        await request.hooks.compact('timeout');
        continue;
      }
    }

    if (failure.reason === 'context_overflow') {
      if (overflowCompactions < maxOverflowCompactions && request.hooks?.compact) {
        overflowCompactions++;
        try {
          await request.hooks.compact('overflow');
        } catch (error) {
          return failed(
            new FailoverError('context_overflow', (error as Error).message, {
              provider: ref.provider,
              model: ref.model,
              cause: error,
            }),
          );
        }
        continue;
      }
      if (!truncated && request.hooks?.truncateToolResults) {
        truncated = true;
        await request.hooks.truncateToolResults();
        continue;
      }
      return failed(
        new FailoverError(
          'context_overflow',
          `the conversation no longer fits ${modelRef}'s context window (${limits.contextWindow} tokens) after compaction and tool-result truncation; start a new session or use a model with a larger context`,
          { provider: ref.provider, model: ref.model, cause: result.error },
        ),
      );
    }

    if (failure.reason === 'auth' && profile?.type === 'oauth' && !refreshed.has(profile.id)) {
      refreshed.add(profile.id);
      if (await deps.auth.refresh(profile).catch(() => false)) continue;
    }

    if (backoffReasons.has(failure.reason) && backoffs < 1) {
      backoffs++;
      const waitMs = Math.min(failure.retryAfterMs ?? 1_000, maxWaitMs);
      request.onEvent({ type: 'retry', model: modelRef, profileId: profile?.id, reason: failure.reason, waitMs });
      await sleep(deps, waitMs, request.signal);
      continue;
    }

    if (profile && profileReasons.has(failure.reason)) {
      await deps.auth.markFailure(profile.id, failure.reason, failure.retryAfterMs);
      tried.add(profile.id);
      profile = pickProfile();
      if (profile)
        request.onEvent({ type: 'retry', model: modelRef, profileId: profile.id, reason: failure.reason, waitMs: 0 });
      continue;
    }
    return failed(failure);
  }
  return failed(lastFailure ?? new FailoverError('unknown', `${modelRef}: gave up after ${iterationCap} attempts`));

  function failed(error: Error): TurnOutcome {
    return {
      status: 'error',
      messages: [],
      usage,
      model: modelRef,
      profileId: profile?.id,
      stopReason: 'error',
      error,
    };
  }
}

/** Failures that belong to a credential: the profile cools down or is disabled, and the next one is tried. */
const profileReasons = new Set<FailoverReason>(['rate_limit', 'auth', 'auth_permanent', 'billing', 'timeout']);
/** Failures of the provider itself: one backoff on the same profile, then fall back. */
const backoffReasons = new Set<FailoverReason>(['overloaded', 'server_error', 'empty_response']);

/** Why the profile whose cooldown ends first is cooling down, as its stats recorded it. */
function soonestCooldownReason(deps: RunnerDeps, ref: ModelRef): FailoverReason | undefined {
  const now = deps.clock.now();
  let soonest: { until: number; reason: FailoverReason | undefined } | undefined;
  for (const p of deps.auth.profilesFor(ref.provider)) {
    const stats = deps.auth.stats(p.id);
    const until = stats?.cooldownUntil ?? 0;
    if (until > now && (!soonest || until < soonest.until)) soonest = { until, reason: stats?.cooldownReason };
  }
  return soonest?.reason;
}

function exhausted(deps: RunnerDeps, ref: ModelRef, last: FailoverError | undefined): FailoverError {
  const now = deps.clock.now();
  const profiles = deps.auth.profilesFor(ref.provider);
  const states = profiles.map((p) => {
    const stats = deps.auth.stats(p.id);
    if (stats?.disabledReason && (stats.disabledUntil === undefined || stats.disabledUntil > now)) {
      const until = stats.disabledUntil
        ? `until ${new Date(stats.disabledUntil).toISOString()}`
        : 'until you set it again';
      return { reason: stats.disabledReason, text: `"${p.id}" disabled (${stats.disabledReason}) ${until}` };
    }
    if (stats?.cooldownUntil && stats.cooldownUntil > now) {
      const seconds = Math.ceil((stats.cooldownUntil - now) / 1000);
      return {
        reason: stats.cooldownReason,
        text: `"${p.id}" cooling down (${stats.cooldownReason}) for ${seconds} s`,
      };
    }
    return { reason: undefined, text: `"${p.id}" failed` };
  });
  const reason = last?.reason ?? states.find((s) => s.reason)?.reason ?? 'auth';
  return new FailoverError(
    reason,
    `${formatModelRef(ref)}: no usable auth profile left (${states.map((s) => s.text).join('; ')})${last ? `; last failure: ${last.message}` : ''}`,
    { provider: ref.provider, model: ref.model, cause: last },
  );
}
