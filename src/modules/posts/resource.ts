// Posts in the registry of resources (modules/registry.ts).
import { defineResource } from '../resource.ts';
import { presentPostsOn } from './present.ts';
import postRoutes from './routes.ts';
import { POST_EXPANSIONS } from './schema.ts';
import { loadVisiblePosts } from './service.ts';

export const POST = defineResource({
  kind: 'post',
  path: 'posts',
  tables: [
    { name: 'posts', order: ['seq'], booleans: ['is_resolved'] },
    { name: 'post_images', order: ['id'] },
    { name: 'post_reactions', order: ['id'] },
  ],
  searchFields: [],
  events: ['post.created'],
  eventData: {
    loadVisible: loadVisiblePosts,
    present: (ctx, posts, publicUrl) => presentPostsOn(ctx, posts, new Set(POST_EXPANSIONS), publicUrl),
  },
  routes: postRoutes,
});
