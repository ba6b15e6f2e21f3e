// The Servers API's context from the runtime: the catalog, the encryption secret, the stdio switch.
import type { Runtime } from '../runtime';
import type { ServerStoreContext } from './server-store';

export const serverStoreContext = (rt: Runtime): ServerStoreContext => ({
  q: rt.q,
  mcp: rt.mcp,
  secret: rt.config.secret ?? rt.sessionSecret,
  allowStdio: rt.config.mcpUiStdio,
});
