// What the Servers page shows: each server (where it is configured, how it connects, its state),
// its tools with annotations, risk and what the stored policy decides for a call with no
// arguments, and each changed definition awaiting review (old and new). Secrets appear as names.
import { isHttp } from '../../agent/tools/mcp/config';
import { mcpToolName } from '../../agent/tools/mcp/naming';
import type { McpServerView } from '../../contract';
import { evaluate, type Policy } from '../../policy';
import type { McpCatalog } from './catalog';
import { masked } from './secrets';

/** Typed by the contract, so the page's form and this view cannot drift apart. */
export async function serverViews(mcp: McpCatalog, policy: Policy): Promise<McpServerView[]> {
  return Promise.all(
    mcp.servers().map(async (upstream) => {
      const config = upstream.config;
      const pins = await mcp.pins.list(upstream.name);
      return {
        name: upstream.name,
        source: mcp.sourceOf(upstream.name) ?? 'file',
        readOnly: mcp.sourceOf(upstream.name) !== 'database',
        type: isHttp(config) ? 'http' : 'stdio',
        ...(isHttp(config)
          ? { url: config.url, headers: masked(config.headers) }
          : {
              command: config.command,
              args: config.args ?? [],
              env: masked(config.env),
              ...(config.cwd ? { cwd: config.cwd } : {}),
            }),
        trusted: config.trusted === true,
        paramKinds: config.paramKinds ?? {},
        ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
        state: upstream.state,
        ...(upstream.lastError ? { error: upstream.lastError } : {}),
        tools: [...upstream.tools.values()].map(({ info, blocked }) => ({
          name: info.name,
          upstreamName: info.upstreamName,
          description: info.description,
          annotations: info.annotations ?? {},
          risk: info.risk,
          decision: evaluate(policy, { tool: info.name, params: {} }, { risk: info.risk, paramKinds: info.paramKinds })
            .action,
          ...(blocked ? { blocked } : {}),
        })),
        rejected: upstream.rejected,
        changes: pins
          .filter((p) => p.pending)
          .map((p) => ({
            tool: mcpToolName(upstream.name, p.tool),
            upstreamName: p.tool,
            old: { digest: p.digest, definition: p.definition },
            new: { digest: p.pending!.digest, definition: p.pending!.definition, seenAt: p.pending!.seenAt },
          })),
      };
    }),
  );
}
