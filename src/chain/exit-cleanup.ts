/**
 * Kills child processes synchronously on the parent's way out: process 'exit' (normal end,
 * process.exit, uncaught exception) and SIGINT/SIGTERM/SIGHUP.
 *
 * Signals: when the application has its own handler for a signal it owns shutdown (and will
 * call stop() or exit), so we stay out of the way. When ours is the only handler we kill the
 * children and re-raise the signal, so the default "terminate" still happens; a library must
 * not turn Ctrl+C into a no-op. A SIGKILLed parent runs no code at all: the anvil watchdog
 * covers that case.
 */
type KillSync = () => void;

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const registered = new Set<KillSync>();
const signalHandlers = new Map<NodeJS.Signals, () => void>();

function killAll(): void {
  for (const kill of registered) {
    try {
      kill();
    } catch {
      // Best effort: one stale pid must not keep the others alive.
    }
  }
  registered.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  killAll();
  uninstall();
  // No listener is left now, so the re-raised signal takes its default action.
  process.kill(process.pid, signal);
}

function install(): void {
  if (signalHandlers.size > 0) return;
  process.on("exit", killAll);
  for (const signal of SIGNALS) {
    const handler = () => onSignal(signal);
    signalHandlers.set(signal, handler);
    process.on(signal, handler);
  }
}

function uninstall(): void {
  process.removeListener("exit", killAll);
  for (const [signal, handler] of signalHandlers) process.removeListener(signal, handler);
  signalHandlers.clear();
}

/** Registers a synchronous kill; returns the function that unregisters it after a clean stop. */
export function killOnExit(kill: KillSync): () => void {
  registered.add(kill);
  install();
  return () => {
    registered.delete(kill);
    if (registered.size === 0) uninstall();
  };
}
