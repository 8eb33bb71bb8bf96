// WARPDP_VITERBI: gpu-viterbi, HMMER3's Viterbi filter and pipeline rule
// (hmmsearch's third stage; with --msv and --forward in ext.args also its
// MSV, bias and Forward filters in one pass), on a GPU when the task was
// given one and on the CPU otherwise. The survivors and the target count Z
// it writes are what a final `hmmsearch -Z` needs: examples/hmmsearch.nf
// runs it once per database chunk.
process WARPDP_VITERBI {
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
    tuple val(meta3), path(candidates)

    output:
    tuple val(meta), path("*.viterbi.{tsv,jsonl}.gz"), emit: scores
    tuple val(meta), path("*.survivors.fa.gz"), emit: survivors
    tuple val(meta), path("*.viterbi.stats.json"), emit: stats
    tuple val("${task.process}"), val('warpdp'), eval("gpu-viterbi --version | sed -n '1s/.* //p'"), emit: versions_warpdp, topic: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_VITERBI has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def args   = task.ext.args   ?: ''
    def prefix = task.ext.prefix ?: "${meta.id}"
    def format_args = args.replace('--format=', '--format ')  // --format=X as --format X
    def format = format_args.contains('--format jsonl') ? 'jsonl' : 'tsv'
    // N GPUs asked for (task.accelerator.request): the first N the task sees,
    // cuda:0,..,N-1; none: the CPU (modules/README.md, "GPUs")
    def gpus   = task.accelerator?.request ?: 0
    def device = !task.accelerator ? 'cpu' : gpus ? 'cuda:' + (0..<gpus).join(',') : 'auto'
    // gpu-viterbi reads the candidate stream plain, from stdin here so that a
    // gzipped gpu-msv output (WARPDP_MSV's) serves as well as a plain one
    def feed   = candidates ? "gzip -cdf ${candidates} |" : ''
    def source = candidates ? '--candidates -' : ''
    """
    ${feed} gpu-viterbi \\
        ${args} \\
        --device ${device} \\
        --threads ${task.cpus} \\
        --hmm ${hmmfile} \\
        --db ${seqdb} \\
        ${source} \\
        --survivors ${prefix}.survivors.fa \\
        --stats ${prefix}.viterbi.stats.json \\
        -o ${prefix}.viterbi.${format}

    gzip --no-name ${prefix}.viterbi.${format} ${prefix}.survivors.fa
    """

    stub:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_VITERBI has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def args   = task.ext.args   ?: ''
    def prefix = task.ext.prefix ?: "${meta.id}"
    def format_args = args.replace('--format=', '--format ')  // --format=X as --format X
    def format = format_args.contains('--format jsonl') ? 'jsonl' : 'tsv'
    """
    touch ${prefix}.viterbi.${format} ${prefix}.survivors.fa
    gzip --no-name ${prefix}.viterbi.${format} ${prefix}.survivors.fa
    touch ${prefix}.viterbi.stats.json
    """
}
