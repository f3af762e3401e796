// The page's header: the skip link and the business's name, a link back to its activities.
import { onLinkClick, shopPath } from '../route.js';

export function Header({ name, slug }: { name: string; slug: string }) {
  return (
    <header class="top">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <a class="brand" href={shopPath(slug)} onClick={onLinkClick}>
        {name}
      </a>
    </header>
  );
}
