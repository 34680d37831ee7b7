import { useState } from 'react';
import type { FoundEngine, FoundEngines as Found } from '../../../shared/contract';
import { useApi, useApp } from '../store/context';
import './engines.css';

const WHERE_WE_LOOK = 'ComfyUI on 8188 and 8000, A1111/Forge on 7860 and 7861, SwarmUI on 7801, InvokeAI on 9090';

/** "Find engines on this computer": probes the usual local ports, names what answers, connects it in one click. */
export function FindEngines({ autoStart = false }: { autoStart?: boolean }) {
  const api = useApi();
  const reportError = useApp((s) => s.reportError);
  const toast = useApp((s) => s.toast);
  const loadSettings = useApp((s) => s.loadSettings);
  const openImport = useApp((s) => s.openImportDialog);
  const [found, setFound] = useState<Found | null>(null);
  const [looking, setLooking] = useState(false);
  const [connecting, setConnecting] = useState<string | null>(null);
  const [started, setStarted] = useState(false);
  const setPanel = useApp((s) => s.setPanel);
  // The import dialog takes the screen: Settings (when open) steps aside for it.
  const importFolder = () => {
    setPanel('none');
    openImport();
  };

  const look = async () => {
    setLooking(true);
    try {
      setFound(await api.call('engines.find', {}));
    } catch (error) {
      reportError(error);
    } finally {
      setLooking(false);
    }
  };
  // Opened from the empty state's "Connect an engine": the probe runs at once (adjusted while rendering).
  if (autoStart && !started) {
    setStarted(true);
    void look();
  }

  const connect = async (engine: FoundEngine) => {
    setConnecting(engine.url);
    try {
      const { provider, test } = await api.call('engines.connect', { url: engine.url });
      toast(
        test.ok
          ? { kind: 'info', message: `${provider.name} is connected at ${engine.url}.` }
          : { kind: 'error', message: `${provider.name} is on, but its test failed: ${test.message}` },
      );
      await loadSettings();
      setFound(await api.call('engines.find', {}));
    } catch (error) {
      reportError(error);
    } finally {
      setConnecting(null);
    }
  };

  return (
    <div className="find-engines" aria-label="Engines on this computer" role="group">
      <button type="button" className="btn" disabled={looking} onClick={() => void look()}>
        {looking
          ? 'Looking on this computer…'
          : found !== null && autoStart
            ? 'Look again'
            : 'Find engines on this computer'}
      </button>
      {found === null ? null : (
        <div role="status">
          {found.engines.length === 0 ? (
            <p className="find-engines-summary">
              No engine answers on this computer’s usual ports ({WHERE_WE_LOOK}). Start one, then look again.
            </p>
          ) : (
            <ul className="find-engines-list">
              {found.engines.map((engine) => (
                <li key={engine.url} className="found-engine" data-kind={engine.kind}>
                  <div className="found-engine-text">
                    <strong>{engine.name}</strong>
                    {engine.version === undefined ? null : ` ${engine.version}`}{' '}
                    <span className="mono">{engine.url}</span>
                    {engine.connectable ? null : (
                      <p className="found-engine-note">
                        Atelier cannot drive {engine.name} yet, but it can bring in its images with their settings:{' '}
                        <button type="button" className="link" onClick={importFolder}>
                          import its output folder
                        </button>
                        .
                      </p>
                    )}
                  </div>
                  {!engine.connectable ? null : engine.alreadyConnected ? (
                    <span className="badge ok">Connected</span>
                  ) : (
                    <button
                      type="button"
                      className="btn small primary"
                      disabled={connecting !== null}
                      aria-label={`Connect ${engine.name} at ${engine.url}`}
                      onClick={() => void connect(engine)}
                    >
                      {connecting === engine.url ? 'Connecting…' : 'Connect'}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {found.otherPorts.length === 0 ? null : (
            <p className="find-engines-summary">
              Something else answers on port{found.otherPorts.length === 1 ? '' : 's'} {found.otherPorts.join(', ')}:
              not an engine Atelier knows.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
