import { editorType } from '../../core/content-types.ts';
import { definePlugin } from '../../core/plugin.ts';
import { LOTTIE_TYPE, lottieBlock } from './block.ts';

export { LOTTIE_TYPE };

/**
 * Lottie animations (Kadence Blocks' kb-lottieanimation/v1): an editor uploads a Lottie document,
 * which is checked against the Lottie specification and stored as a post; players load it back,
 * publicly, from `animations/{id}.json`, revalidating with its ETag.
 */
const lottie = definePlugin({
  name: 'lottie',
  title: 'Lottie Animations',
  version: '1.0.0',
  description: 'Stores Lottie animations for the Lottie block and serves them to players.',
  author: 'cms-spec',
  namespaces: ['kb-lottieanimation/v1'],
  postTypes: [editorType(LOTTIE_TYPE, 'Lottie Animations', 'Lottie Animation')],
  blocks: [lottieBlock],
});

export default lottie;
