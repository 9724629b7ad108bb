import type { EffectivePolicy } from '../../domain/index.ts';

/** A deploy policy file that could not be applied: its path and every problem (docs/ADMIN.md). */
export function PolicyBanner({ policy }: { policy: EffectivePolicy | null }) {
  if (!policy?.error) return null;
  return (
    <div role="alert" className="banner error policy-banner" aria-labelledby="policy-banner-title">
      <strong id="policy-banner-title">The deploy policy {policy.error.path} was not applied.</strong> Safe
      defaults are in force (no update checks, no local sandbox) until your administrator fixes it:
      <ul>
        {policy.error.problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </div>
  );
}
