//! Witness triangle puzzles: puzzles, partial paths, generators, completion oracle, A* search.
