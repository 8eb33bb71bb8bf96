// WARPDP_NWDIST: gpu-nw-dist, all-pairs Needleman-Wunsch distances of
// amplicon reads, byte-identical to AmpliconNoise's NDist (or SeqDist with
// --metric seqdist in ext.args), on a GPU when the task was given one and on
// the CPU otherwise. A task computes the whole lower triangle or one tile of
// it ("K/N", balanced by cell count): tiles written in order concatenate to
// the whole output in every format, so a workflow can spread one matrix over
// many tasks (examples/amplicon-dist.nf).
process WARPDP_NWDIST {
    tag "${meta.id}"
    label 'process_medium'
    label 'process_gpu'

    // No conda package exists: the tools ship only in warpdp's images (containers/).
    container "${ workflow.containerEngine in ['singularity', 'apptainer'] && !task.ext.singularity_pull_docker_container ?
        'https://github.com/warpdp/warpdp/releases/download/v0.1.0/warpdp-0.1.0.sif' :
        'quay.io/warpdp/warpdp:0.1.0' }"

    input:
    tuple val(meta), path(reads), val(tile)

    output:
    tuple val(meta), path("*.{ndist,tsv,jsonl,phylip,bin}.gz"), emit: distances
    tuple val("${task.process}"), val('warpdp'), eval("gpu-nw-dist --version | sed -n '1s/.* //p'"), emit: versions_warpdp, topic: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_NWDIST has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def args   = task.ext.args   ?: ''
    // the tiles of one matrix are gathered into one task: their default names differ
    def prefix = task.ext.prefix ?: (tile ? "${meta.id}.tile${tile.replace('/', 'of')}" : "${meta.id}")
    def format_args = args.replace('--format=', '--format ')  // --format=X as --format X
    def suffix = format_args.contains('--format tsv') ? 'tsv' : format_args.contains('--format jsonl') ? 'jsonl' : format_args.contains('--format phylip') ? 'phylip' : format_args.contains('--format binary') ? 'bin' : 'ndist'
    def slice  = tile ? "--tile ${tile}" : ''
    // N GPUs asked for (task.accelerator.request): the first N the task sees,
    // cuda:0,..,N-1; none: the CPU (modules/README.md, "GPUs")
    def gpus   = task.accelerator?.request ?: 0
    def device = !task.accelerator ? 'cpu' : gpus ? 'cuda:' + (0..<gpus).join(',') : 'auto'
    """
    gpu-nw-dist \\
        ${args} \\
        ${slice} \\
        --device ${device} \\
        --threads ${task.cpus} \\
        --in ${reads} \\
        -o ${prefix}.${suffix}

    gzip --no-name ${prefix}.${suffix}
    """

    stub:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_NWDIST has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def args   = task.ext.args   ?: ''
    def prefix = task.ext.prefix ?: (tile ? "${meta.id}.tile${tile.replace('/', 'of')}" : "${meta.id}")
    def format_args = args.replace('--format=', '--format ')  // --format=X as --format X
    def suffix = format_args.contains('--format tsv') ? 'tsv' : format_args.contains('--format jsonl') ? 'jsonl' : format_args.contains('--format phylip') ? 'phylip' : format_args.contains('--format binary') ? 'bin' : 'ndist'
    """
    touch ${prefix}.${suffix}
    gzip --no-name ${prefix}.${suffix}
    """
}
