/** VolumeAttachment. */
import { storage } from '../groups.js';

export const volumeAttachments = storage({
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  namespaced: false,
  subresources: { status: true },
});
