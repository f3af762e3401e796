// The time left on the held places. The visible clock ticks every second; screen readers hear it once a minute
// (a live region changing every second would talk over everything else).
import { useEffect, useState } from 'preact/hooks';
import { formatCountdown } from '../format.js';

export function HoldTimer({ expiresAt, onExpired }: { expiresAt: string; onExpired: () => void }) {
  const until = Date.parse(expiresAt);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = until - now;
  useEffect(() => {
    if (left <= 0) onExpired();
  }, [left <= 0]);
  const minutes = Math.ceil(left / 60_000);
  return (
    <div class={left < 120_000 ? 'hold-timer urgent' : 'hold-timer'}>
      <span aria-hidden="true">
        Your places are held for <strong>{formatCountdown(left)}</strong>
      </span>
      <span class="sr-only" aria-live="polite">
        {left > 0 ? `Your places are held for ${minutes} more ${minutes === 1 ? 'minute' : 'minutes'}.` : 'Your hold has ended.'}
      </span>
    </div>
  );
}
