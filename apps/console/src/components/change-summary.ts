// How the console writes a recorded change ({ Member: { From, To } }, as the booking history and the audit log answer
// it) in one line: "Participants: 1 → 2; Time: 15:00 → 09:00".

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(shown).join(', ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([name, member]) => `${name} ${shown(member)}`)
      .join(', ');
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** Each member's change; for a thing just created (`created`), each member's value alone. */
export function changeSummary(changes: Readonly<Record<string, { From?: unknown; To?: unknown }>> | null | undefined, created = false): string {
  if (!changes) return '';
  return Object.entries(changes)
    .map(([name, change]) => (created ? `${name}: ${shown(change.To)}` : `${name}: ${shown(change.From)} → ${shown(change.To)}`))
    .join('; ');
}
