"""How much reasoning a grid needs, on the native core: the depth of nested hypotheses
(`depth`: the failed-literal closure of depth k, Berthier's T&E(k)), the length of the
shortest refutations (`length`, grids of depth 0-1) and Berthier's BxB (`bxb`, depth-2
grids); `chunks` rates the lines of a file for `python -m solvers rate`, and
`per_geometry` keeps the raters of each geometry loaded across chunks."""
