// A config in a folder whose package.json has no "type" (CommonJS): loads all the same.
import { defineConfig } from 'routecert';

const routes: string[] = ['claude-code/json'];

export default defineConfig({
  worker: { name: 'team worker', command: ['bash', 'worker.sh', '{prompt}', '{out}'], prompt: 'file', artifact: '{outDir}/pov.json', windowEnv: { hardWindowS: 'H', retryMinS: 'R' } },
  routes,
});
