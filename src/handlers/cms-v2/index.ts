// The cms/v2 namespace's handlers, one module per resource.
export { listPosts, getPost, createPost, updatePost, deletePost } from './posts.ts';
export { listTerms, getTerm, createTerm, updateTerm, deleteTerm } from './terms.ts';
export * from './types.ts';
export * from './users.ts';
export * from './search.ts';
export * from './settings.ts';
export * from './app-passwords.ts';
