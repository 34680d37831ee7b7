import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ModelLibrary as Library } from '../../../../shared/contract';
import { ModelCard } from '../../../../renderer/src/models/ModelCard';
import { ModelLibrary } from '../../../../renderer/src/models/ModelLibrary';
import { LoraPicker } from '../../../../renderer/src/models/LoraPicker';
import { ModelLink } from '../../../../renderer/src/models/ModelLink';
import { MODEL_CARD, modelGridLayout } from '../../../../renderer/src/models/model-grid-layout';
import { AppProvider } from '../../../../renderer/src/store/context';
import { Composer } from '../../../../renderer/src/composer/Composer';
import { keyToCommand } from '../../../../renderer/src/common/keyboard';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi } from '../helpers';
import { libraryModel, server } from './fixtures';

const DAY = 86_400_000;

function render(node: ReactNode, setup: (store: ReturnType<typeof createAppStore>) => void = () => undefined) {
  const { api } = fakeApi();
  const store = createAppStore({ api, makeKey: () => 'k', now: () => 0 });
  setup(store);
  // Server rendering reads zustand's initial state: the state as set up stands in for it.
  const rendered = { ...store, getInitialState: store.getState };
  const html = renderToStaticMarkup(createElement(AppProvider, { store: rendered, api, children: node }));
  // Text as read: tags dropped, entities of quotes back.
  const text = html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
  return { html, text, store };
}

describe('a model card', () => {
  const lora = libraryModel({
    name: 'detail_tweaker',
    baseModel: 'sd15',
    triggerWords: ['intricate', 'hdr'],
    imageCount: 123,
    lastUsedAt: Date.now() - 3 * DAY - 1000,
    note: 'best at 0.6',
    servers: [{ provider: 'a1111', name: 'detail_tweaker' }],
    preview: { imageId: 'img-7', jobId: 'job-7', rating: 5 },
  });

  it('shows the person’s best picture made with it, kind and base as marks, use, servers, trigger words and note', () => {
    const { html, text } = render(createElement(ModelCard, { model: lora, pictureHeight: 150 }), (store) =>
      store.setState({ providers: [server('a1111', 'Studio A1111', 'a1111')] }),
    );
    expect(html).toContain('src="/media/thumb/img-7"');
    expect(html).toContain('alt="Your best-rated image made with detail_tweaker"');
    expect(text).toContain('LoRA sd15 detail_tweaker 123 images · last used 3 days ago On Studio A1111');
    expect(text).toContain('intricate hdr');
    expect(html).toContain('>best at 0.6</textarea>');
    expect(text).toContain('Show images');
    expect(text).toContain('Use in composer');
  });

  it('mounted during a fling, asks for no picture (the words are there at once)', () => {
    const { html, text } = render(createElement(ModelCard, { model: lora, pictureHeight: 150, lite: true }));
    expect(html).not.toContain('<img');
    expect(text).toContain('detail_tweaker');
  });

  it('without images: a quiet placeholder naming the kind; a file on no connected server says so', () => {
    const vae = libraryModel({ name: 'sdxl_vae', kind: 'vae' });
    const { html, text } = render(createElement(ModelCard, { model: vae, pictureHeight: 150 }));
    expect(html).not.toContain('<img');
    expect(html).toMatch(/class="model-placeholder"[^>]*>VAE</);
    expect(text).toContain('No images yet');
    expect(html).toMatch(/class="model-servers missing">Not on any connected server/);
    // No images search exists for a VAE.
    expect(text).not.toContain('Show images');
  });
});

describe('the Models screen', () => {
  const library: Library = {
    items: [
      libraryModel({ name: 'juggernautXL', kind: 'checkpoint', baseModel: 'sdxl', imageCount: 9 }),
      libraryModel({ name: 'detail', baseModel: 'sd15', imageCount: 3 }),
      libraryModel({ name: 'ghibli', baseModel: 'sdxl', imageCount: 1 }),
    ],
    total: 3,
    baseModels: ['sd15', 'sdxl'],
  };

  it('counts each kind for the search and base model, and the matches of the entries', () => {
    const { text, html } = render(createElement(ModelLibrary), (store) =>
      store.setState({
        modelLibrary: library,
        modelsState: 'ready',
        modelFilter: { search: '', kind: 'lora', baseModel: 'sdxl', sort: 'used' },
      }),
    );
    expect(text).toContain('1 match of 3 entries');
    expect(text).toMatch(/All 2 Checkpoints 1 LoRAs 1 Embeddings 0 VAEs 0/);
    expect(html).toMatch(/aria-selected="true" class="tab active">LoRAs/);
    expect(html).toContain('<option value="sd15">sd15</option>');
  });

  it('says why when the library cannot be read, with a way to try again', () => {
    const { text } = render(createElement(ModelLibrary), (store) =>
      store.setState({ modelsState: 'error', modelsError: 'The model library is not built yet.' }),
    );
    expect(text).toContain('The model library could not be read: The model library is not built yet. Try again');
  });
});

describe('the composer’s LoRA picker', () => {
  const a = server('a1111', 'Studio A1111', 'a1111');

  it('shows only when the provider takes LoRAs; otherwise one line says why', () => {
    const none = render(
      createElement(LoraPicker, {
        servers: [server('builtin', 'Built-in', 'builtin', [], false)],
        takesLoras: false,
        problems: [],
      }),
    );
    expect(none.text.trim()).toBe('LoRAs: Built-in takes none (A1111, Forge and ComfyUI servers do).');
    expect(none.html).not.toContain('Add LoRA');
    const some = render(createElement(LoraPicker, { servers: [a], takesLoras: true, problems: [] }));
    expect(some.text).toContain('Add LoRA');
  });

  it('lists the picked LoRAs in order, each with a −2…2 slider, a −4…4 number box, Remove, and its trigger words', () => {
    const { html, text } = render(
      createElement(LoraPicker, { servers: [a], takesLoras: true, problems: ['LoRA “old” is not on Studio A1111.'] }),
      (store) => {
        store.getState().updateDraft({
          loras: [
            { name: 'styles/ghibli', weight: 0.6 },
            { name: 'old', weight: -1 },
          ],
        });
        store.setState({
          modelLibrary: {
            items: [
              libraryModel({
                name: 'ghibli',
                triggerWords: ['ghibli'],
                servers: [{ provider: 'a1111', name: 'styles/ghibli' }],
              }),
            ],
            total: 1,
            baseModels: [],
          },
        });
      },
    );
    expect(text.indexOf('ghibli')).toBeLessThan(text.indexOf('old'));
    expect(html).toContain('aria-label="Weight of styles/ghibli" min="-2" max="2" step="0.05" value="0.6"');
    expect(html).toContain('aria-label="Weight of old, typed" min="-4" max="4" step="0.05" value="-1"');
    expect(html).toContain('aria-label="Remove old"');
    expect(text).toContain('Add trigger words: ghibli');
    expect(html).toMatch(/role="alert">LoRA “old” is not on Studio A1111\./);
  });
});

describe('Details’ model names', () => {
  it('link to the images made with it and to its card in the library', () => {
    const { html, text } = render(
      createElement(ModelLink, { kind: 'lora', name: 'styles/ghibli.safetensors', weight: 0.6 }),
    );
    expect(text).toContain('styles/ghibli.safetensors × 0.6 In model library');
    expect(html).toContain('title="Show every image made with ghibli"');
    expect(html).toContain('aria-label="In model library: ghibli"');
  });
});

describe('the windowed grid', () => {
  it('fits as many cards as the width takes and draws only the rows near the view', () => {
    const layout = modelGridLayout(1000, 2_000, 0, 800);
    expect(layout.columns).toBe(3);
    expect(layout.cardWidth * 3 + MODEL_CARD.gap * 2).toBeLessThanOrEqual(1000);
    expect(layout.cardWidth).toBeGreaterThanOrEqual(MODEL_CARD.minWidth);
    expect(layout.firstRow).toBe(0);
    expect(layout.endRow).toBeLessThan(10);
    expect(layout.totalHeight).toBe(667 * layout.rowHeight + 666 * MODEL_CARD.gap);
    const far = modelGridLayout(1000, 2_000, layout.totalHeight - 800, 800);
    expect(far.endRow).toBe(667);
    expect(far.endRow - far.firstRow).toBeLessThan(10);
    expect(modelGridLayout(100, 3, 0, 800).columns).toBe(1);
    expect(modelGridLayout(1000, 0, 0, 800)).toMatchObject({ totalHeight: 0, firstRow: 0, endRow: 0 });
  });
});

describe('the composer with a LoRA or model its server lacks', () => {
  const a = server('a1111', 'Studio A1111', 'a1111', ['juggernautXL.safetensors']);
  const library: Library = {
    items: [
      libraryModel({ name: 'ghibli', servers: [{ provider: 'a1111', name: 'ghibli' }] }),
      libraryModel({ name: 'old' }),
    ],
    total: 2,
    baseModels: [],
  };
  const composer = (loras: string[], model = '') =>
    render(createElement(Composer), (store) => {
      store.setState({ providers: [a], modelLibrary: library });
      store.getState().updateDraft({
        provider: 'a1111',
        prompt: 'a castle',
        model,
        loras: loras.map((name) => ({ name, weight: 1 })),
      });
    });
  const generate = (html: string) => /<button type="submit"[^>]*>/.exec(html)?.[0] ?? '';

  it('names what is missing under its field and holds Generate with the reason', () => {
    const { html, text } = composer(['ghibli', 'old']);
    expect(html).toMatch(/role="alert">LoRA “old” is not on Studio A1111\./);
    expect(generate(html)).toContain('disabled=""');
    expect(generate(html)).toContain('aria-describedby="missing-reason"');
    expect(text).toContain('Add LoRA');
    const model = composer([], 'dreamshaper.safetensors');
    expect(model.html).toMatch(/role="alert">Model “dreamshaper.safetensors” is not on Studio A1111\./);
    expect(generate(model.html)).toContain('disabled=""');
  });

  it('sends when the server has them all', () => {
    const { html } = composer(['ghibli'], 'juggernautXL.safetensors');
    expect(generate(html)).not.toContain('disabled');
    expect(html).not.toContain('is not on');
  });
});

describe('M', () => {
  it('opens the Models screen from the gallery (and not inside a text field)', () => {
    const key = (inTextField: boolean) => ({
      key: 'm',
      ctrlKey: false,
      metaKey: false,
      shiftKey: false,
      altKey: false,
      inTextField,
    });
    expect(keyToCommand(key(false), 'grid')).toBe('models');
    expect(keyToCommand(key(false), 'other')).toBe('models');
    expect(keyToCommand(key(true), 'other')).toBeNull();
    expect(keyToCommand(key(false), 'viewer')).toBeNull();
  });
});
