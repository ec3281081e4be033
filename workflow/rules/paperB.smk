# Paper B (bulk-edge sticking, Jerschow): figures B1-B6, tables B-T1, B-T2 (in progress).


rule paperB:
    input:
        [],
