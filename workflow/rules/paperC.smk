# Paper C (spectral degeneration): figures C1-C5, tables C-T1, C-T2 (issue 5, not yet built).


rule paperC:
    input:
        [],
