/**
 * An endpoint URL as a reader below admin sees it: scheme, host and port only, the path and query
 * masked (a Slack or Teams webhook URL is itself a credential; so is user:password@).
 */
export function maskEndpointUrl(url: string): string {
  try {
    const u = new URL(url);
    const hidden = u.pathname.length > 1 || u.search.length > 0 || u.hash.length > 0;
    return `${u.protocol}//${u.host}${hidden ? "/••••••" : "/"}`;
  } catch {
    return "••••••";
  }
}
