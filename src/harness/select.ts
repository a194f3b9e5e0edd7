/** The one rule of what a `--route` entry selects, shared by the corpus, the probes and the CLI's filter checks. */

/** True when a `--route` entry selects `route`: the route itself or its family (`claude-code` selects `claude-code/json`). */
export function routeSelected(entry: string, route: string): boolean {
  return route === entry || route.startsWith(`${entry}/`);
}
