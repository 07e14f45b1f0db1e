/**
 * The column beside the picture (`.pp-side`): where each drawn panel goes (`panelPlaces`), and, in the lecture
 * preset, how tall the column may be (`fitColumn`): a projector's 1280x720 view holds the controls and the picture,
 * and the column beside the picture must not run below them.
 */

/**
 * The least height the column beside the picture may take in the lecture preset, CSS px: with the controls, the
 * room a 1280x720 JupyterLab gives a notebook's output (about 598 px).
 */
export const LECTURE_SIDE_PX = 540;

/**
 * Where each of a player's drawn panels goes: `tabbed` (lecture: under a tab of the column beside the picture, see
 * `buildTabs`: every panel of an editor's player, of a player with a tall one (in a deck only in a run switch), and
 * of a player whose column is `crowded`: its panels, legend and readout did not fit beside the picture), `under`
 * (the notebook preset: after the readout in that column, a panel that asks for it), `after` (a deck's lecture
 * player: its tall panel after the column, a third column there) and `beside` (in the column, over the legend and
 * the readout).
 * @param {{el: HTMLElement, tall?: boolean, underReadout?: boolean}[]} drawn
 * @param {{large: boolean, inEditor: boolean, inSwitch: boolean, inDeck: boolean, crowded?: boolean}} where
 * @returns {{tabbed: object[], under: HTMLElement[], after: HTMLElement[], beside: HTMLElement[]}}
 */
export function panelPlaces(drawn, { large, inEditor, inSwitch, inDeck, crowded = false }) {
  const tall = drawn.some((p) => p.tall);
  const tabbed = large && (inEditor || crowded || (tall && (inSwitch || !inDeck))) ? drawn : [];
  const under = large ? [] : drawn.filter((p) => p.underReadout);
  const after = large && !tabbed.length ? drawn.filter((p) => p.tall) : [];
  const beside = drawn.filter((p) => ![...tabbed, ...under, ...after].includes(p));
  const els = (list) => list.map((p) => p.el);
  return { tabbed, under: els(under), after: els(after), beside: els(beside) };
}

/**
 * Keep the lecture column beside the picture in the picture's height (or `LECTURE_SIDE_PX` where the picture is
 * shorter, a wide view): the readout scrolls inside it (a focusable, named region). When the column's parts leave
 * the readout less than its least height (its `min-height`: the column runs below the picture) and panels stand in
 * it, `crowd()` is called once: the player puts them under tabs (`panelPlaces` with `crowded`).
 * @param {{side: HTMLElement, figure: HTMLElement, large: boolean, crowd: () => boolean}} parts `crowd` returns
 *   whether it moved anything
 * @returns {() => void} the fit, to call when the figure's size changes (a ResizeObserver's callback)
 */
export function fitColumn({ side, figure, large, crowd }) {
  let crowded = false;
  const fit = () => {
    const beside = side.offsetTop < figure.offsetTop + figure.offsetHeight / 2;
    side.style.maxHeight = large && beside ? `${Math.max(figure.offsetHeight, LECTURE_SIDE_PX)}px` : "";
    if (!large || !beside || crowded || side.scrollHeight <= side.clientHeight + 1) return;
    crowded = crowd();
  };
  return fit;
}
