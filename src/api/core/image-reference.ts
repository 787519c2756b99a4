/**
 * The tag of a container image reference as upstream's parsers.ParseImageName reads it
 * (distribution's reference grammar): the explicit tag, "latest" when neither a tag nor a
 * digest is given, '' when there is only a digest or the reference does not parse.
 */

const ALNUM = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]*)';
const PATH_COMPONENT = `${ALNUM}(?:${SEPARATOR}${ALNUM})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const NAME_TOTAL_LENGTH_MAX = 255;

/** The image's tag for pull-policy defaulting ('latest', an explicit tag, or '' when none applies). */
export function imageTag(image: string): string {
  // A bare 64-hex identifier is an image ID, which ParseNormalizedNamed refuses.
  if (/^[a-f0-9]{64}$/.test(image)) return '';
  const m = REFERENCE.exec(image);
  if (!m || m[1].length > NAME_TOTAL_LENGTH_MAX) return '';
  const [, , tag, digest] = m;
  if (tag !== undefined) return tag;
  return digest === undefined ? 'latest' : '';
}
