// The activity choice shared by the availability, sale and usage pages.
import type { OperatorActivity } from '@backbone/contracts/browser';

export function ActivityPicker({
  activities,
  value,
  onChange,
  label = 'Activity',
}: {
  activities: readonly OperatorActivity[];
  value: string | undefined;
  onChange: (activityId: string) => void;
  label?: string;
}) {
  return (
    <label>
      {label}
      <select name="ActivityID" value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
        {value === undefined && <option value="">Choose…</option>}
        {activities.map((a) => (
          <option key={a.ActivityID} value={a.ActivityID}>
            {a.Name}
            {a.InShopfront ? '' : ' (hidden)'}
          </option>
        ))}
      </select>
    </label>
  );
}
