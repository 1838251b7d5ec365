import { definePlugin } from '../../core/plugin.ts';

/**
 * The image picker (Kadence Blocks' kb-image-picker/v1): images chosen from a stock library
 * (Pexels-style entries with sizes) are imported into the media library once each, through the
 * core's import service, and handed back as attachments.
 */
const imagePicker = definePlugin({
  name: 'image-picker',
  title: 'Image Picker',
  version: '1.0.0',
  description: 'Imports stock photos chosen in the editor into the media library, once each.',
  author: 'cms-spec',
  namespaces: ['kb-image-picker/v1'],
});

export default imagePicker;
