/**
 * A JSON object kept in an option or meta value, where WordPress keeps a serialised PHP array; null
 * for anything else (no value, not JSON, `null`, a list, a scalar), as an import or an older writer
 * may have left PHP's serialisation or another shape there.
 */
export function storedObject(stored: string | null | undefined): Record<string, unknown> | null {
  if (!stored) return null;
  try {
    const value: unknown = JSON.parse(stored);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
