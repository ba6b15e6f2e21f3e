// The chat's pickers (UI state): the mode the status bar shows and the next run starts in, and
// the agent profile for the next run. A live run's mode follows its `mode_changed` events.
import { create } from 'zustand';
import type { Mode } from '@/lib/contract';

interface ChatSettings {
  mode: Mode;
  /** An agent profile name from GET /api/agents; empty means the server's default. */
  agent: string;
  setMode(mode: Mode): void;
  setAgent(agent: string): void;
}

export const useChatSettings = create<ChatSettings>()((set) => ({
  mode: 'default',
  agent: '',
  setMode: (mode) => set({ mode }),
  setAgent: (agent) => set({ agent }),
}));
