// WARPDP_SW: gpu-sw, Smith-Waterman search of protein queries against a
// protein database: per query its best hits by score, with BLAST's bit
// scores and E-values and the alignment one documented rule picks (the
// same on every engine), on a GPU when the task was given one and on the
// CPU otherwise. A query's hits depend on the whole database (its residue
// count is the E-values' search space) but not on the other queries, so a
// workflow may split the queries over tasks but not the database.
process WARPDP_SW {
    tag "${meta.id}"
    label 'process_medium'
    label 'process_gpu'

    // No conda package exists: the tools ship only in warpdp's images (containers/).
    container "${ workflow.containerEngine in ['singularity', 'apptainer'] && !task.ext.singularity_pull_docker_container ?
        'https://github.com/warpdp/warpdp/releases/download/v0.1.0/warpdp-0.1.0.sif' :
        'quay.io/warpdp/warpdp:0.1.0' }"

    input:
    tuple val(meta), path(query)
    tuple val(meta2), path(db)

    output:
    tuple val(meta), path("*.{tsv,jsonl,m8}.gz"), emit: hits
    tuple val("${task.process}"), val('warpdp'), eval("gpu-sw --version | sed -n '1s/.* //p'"), emit: versions_warpdp, topic: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_SW has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def args   = task.ext.args   ?: ''
    def prefix = task.ext.prefix ?: "${meta.id}"
    def format_args = args.replace('--format=', '--format ')  // --format=X as --format X
    def format = format_args.contains('--format jsonl') ? 'jsonl' : format_args.contains('--format m8') ? 'm8' : 'tsv'
    // N GPUs asked for (task.accelerator.request): the first N the task sees,
    // cuda:0,..,N-1; none: the CPU (modules/README.md, "GPUs")
    def gpus   = task.accelerator?.request ?: 0
    def device = !task.accelerator ? 'cpu' : gpus ? 'cuda:' + (0..<gpus).join(',') : 'auto'
    """
    gpu-sw \\
        ${args} \\
        --device ${device} \\
        --threads ${task.cpus} \\
        --query ${query} \\
        --db ${db} \\
        -o ${prefix}.${format}

    gzip --no-name ${prefix}.${format}
    """

    stub:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_SW has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def args   = task.ext.args   ?: ''
    def prefix = task.ext.prefix ?: "${meta.id}"
    def format_args = args.replace('--format=', '--format ')  // --format=X as --format X
    def format = format_args.contains('--format jsonl') ? 'jsonl' : format_args.contains('--format m8') ? 'm8' : 'tsv'
    """
    touch ${prefix}.${format}
    gzip --no-name ${prefix}.${format}
    """
}
