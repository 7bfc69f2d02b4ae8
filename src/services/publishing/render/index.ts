export { renderComment, renderContent, renderExcerpt, renderTitle } from './display.js';
export type { RenderAttachment, RenderContext } from './display.js';
