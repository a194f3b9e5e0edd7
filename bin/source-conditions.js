// A module resolution hook (node:module register) for a checkout: adds the `routecert-source`
// condition, so package.json `imports` map `#src/*.ts` to src/ (the sources, run through tsx)
// rather than dist/ (the build that the published package runs).
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, 'routecert-source'] });
}
