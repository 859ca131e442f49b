// Instants as the pages show them: always UTC and always named so, the way the API records
// them, so a date on a page reads the same for everyone and matches the API's answer.

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** "2026-11-23T14:05:09.123+00:00" → "2026-11-23 14:05 UTC"; "–" for a missing instant. */
export function utcMinute(iso) {
  if (!iso) return "–";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "–";
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "23 Nov 2026" (UTC). */
export function utcDay(iso) {
  return iso ? DAY.format(new Date(iso)) : "–";
}

/** "2026-11-23" → "2026-11-24": the API's `to` is exclusive, a person's "until" includes the day. */
export function dayAfter(day) {
  const at = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return day;
  at.setUTCDate(at.getUTCDate() + 1);
  return at.toISOString().slice(0, 10);
}
