// WARPDP_NUSSINOV: gpu-nussinov, Nussinov folding of RNA (or DNA) sequences:
// each one's maximum-weight set of non-crossing base pairs and its
// dot-bracket structure (one documented traceback rule, the same string on
// every engine), on a GPU when the task was given one and on the CPU
// otherwise. Sequences fold independently, so a workflow can fold a FASTA in
// batches and concatenate the results in input order (examples/fold.nf).
process WARPDP_NUSSINOV {
    tag "${meta.id}"
    label 'process_medium'
    label 'process_gpu'

    // No conda package exists: the tools ship only in warpdp's images (containers/).
    container "${ workflow.containerEngine in ['singularity', 'apptainer'] && !task.ext.singularity_pull_docker_container ?
        'https://github.com/warpdp/warpdp/releases/download/v0.1.0/warpdp-0.1.0.sif' :
        'quay.io/warpdp/warpdp:0.1.0' }"

    input:
    tuple val(meta), path(fasta)

    output:
    tuple val(meta), path("*.{tsv,jsonl,vienna}.gz"), emit: structures
    tuple val("${task.process}"), val('warpdp'), eval("gpu-nussinov --version | sed -n '1s/.* //p'"), emit: versions_warpdp, topic: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_NUSSINOV has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def args   = task.ext.args   ?: ''
    def prefix = task.ext.prefix ?: "${meta.id}"
    def format_args = args.replace('--format=', '--format ')  // --format=X as --format X
    def format = format_args.contains('--format jsonl') ? 'jsonl' : format_args.contains('--format vienna') ? 'vienna' : 'tsv'
    // N GPUs asked for (task.accelerator.request): the first N the task sees,
    // cuda:0,..,N-1; none: the CPU (modules/README.md, "GPUs")
    def gpus   = task.accelerator?.request ?: 0
    def device = !task.accelerator ? 'cpu' : gpus ? 'cuda:' + (0..<gpus).join(',') : 'auto'
    """
    gpu-nussinov \\
        ${args} \\
        --device ${device} \\
        --threads ${task.cpus} \\
        --in ${fasta} \\
        -o ${prefix}.${format}

    gzip --no-name ${prefix}.${format}
    """

    stub:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_NUSSINOV has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def args   = task.ext.args   ?: ''
    def prefix = task.ext.prefix ?: "${meta.id}"
    def format_args = args.replace('--format=', '--format ')  // --format=X as --format X
    def format = format_args.contains('--format jsonl') ? 'jsonl' : format_args.contains('--format vienna') ? 'vienna' : 'tsv'
    """
    touch ${prefix}.${format}
    gzip --no-name ${prefix}.${format}
    """
}
