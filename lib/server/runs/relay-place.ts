// Where a relay's call acts, for the checks made on it after it was raised (an edit, Always Allow,
// a grant settling it while it waits): an outside agent's call where its decision judged it
// (`request.place`: the hook's cwd, the home `~/` means, the folder a search reads below), else
// Gatehouse's own agent's, in the server's workspace.
import type { EvaluationContext } from '../../policy';
import type { RelayRequest } from '../../relay';

export type RelayPlaceContext = Pick<EvaluationContext, 'homeDir' | 'searchRoot' | 'paramKinds'> & {
  workspaceRoot: string;
};

export function relayPlace(relay: RelayRequest, serverWorkspace: string): RelayPlaceContext {
  if (!relay.place) return { workspaceRoot: serverWorkspace };
  const { editable: _editable, ...place } = relay.place;
  return place;
}
