// WARPDP_MSV: gpu-msv, HMMER3's MSV and bias filters (hmmsearch's first two
// stages, identical scores and decisions), on a GPU when the task was given
// one (the accelerator directive) and on the CPU otherwise. Its candidate
// rows feed WARPDP_VITERBI.
process WARPDP_MSV {
    tag "${meta.id}"
    label 'process_medium'
    label 'process_gpu'

    // No conda package exists: the tools ship only in warpdp's images (containers/).
    container "${ workflow.containerEngine in ['singularity', 'apptainer'] && !task.ext.singularity_pull_docker_container ?
        'https://github.com/warpdp/warpdp/releases/download/v0.1.0/warpdp-0.1.0.sif' :
        'quay.io/warpdp/warpdp:0.1.0' }"

    input:
    tuple val(meta), path(seqdb)
    tuple val(meta2), path(hmmfile)

    output:
    tuple val(meta), path("*.msv.{tsv,jsonl}.gz"), emit: candidates
    tuple val(meta), path("*.msv.stats.json"), emit: stats
    tuple val("${task.process}"), val('warpdp'), eval("gpu-msv --version | sed -n '1s/.* //p'"), emit: versions_warpdp, topic: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_MSV has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def args   = task.ext.args   ?: ''
    def prefix = task.ext.prefix ?: "${meta.id}"
    def format_args = args.replace('--format=', '--format ')  // --format=X as --format X
    def format = format_args.contains('--format jsonl') ? 'jsonl' : 'tsv'
    // N GPUs asked for (task.accelerator.request): the first N the task sees,
    // cuda:0,..,N-1; none: the CPU (modules/README.md, "GPUs")
    def gpus   = task.accelerator?.request ?: 0
    def device = !task.accelerator ? 'cpu' : gpus ? 'cuda:' + (0..<gpus).join(',') : 'auto'
    """
    gpu-msv \\
        ${args} \\
        --device ${device} \\
        --threads ${task.cpus} \\
        --hmm ${hmmfile} \\
        --db ${seqdb} \\
        --stats ${prefix}.msv.stats.json \\
        -o ${prefix}.msv.${format}

    gzip --no-name ${prefix}.msv.${format}
    """

    stub:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_MSV has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def args   = task.ext.args   ?: ''
    def prefix = task.ext.prefix ?: "${meta.id}"
    def format_args = args.replace('--format=', '--format ')  // --format=X as --format X
    def format = format_args.contains('--format jsonl') ? 'jsonl' : 'tsv'
    """
    touch ${prefix}.msv.${format}
    gzip --no-name ${prefix}.msv.${format}
    touch ${prefix}.msv.stats.json
    """
}
