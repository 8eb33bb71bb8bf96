// WARPDP_HMMSEARCH: gpu-hmmsearch, hmmsearch with its MSV, bias, Viterbi and
// Forward filters run by warpdp (on a GPU when the task was given one, on
// the CPU otherwise) and HMMER's own hmmsearch on the survivors: the hit
// tables and the main output equal plain hmmsearch's. Same interface as
// nf-core's hmmer/hmmsearch module, so a pipeline can swap one for the other.
process WARPDP_HMMSEARCH {
    tag "${meta.id}"
    label 'process_medium'
    label 'process_gpu'

    // No conda package exists: the tools ship only in warpdp's images (containers/).
    container "${ workflow.containerEngine in ['singularity', 'apptainer'] && !task.ext.singularity_pull_docker_container ?
        'https://github.com/warpdp/warpdp/releases/download/v0.1.0/warpdp-0.1.0.sif' :
        'quay.io/warpdp/warpdp:0.1.0' }"

    input:
    tuple val(meta), path(hmmfile), path(seqdb), val(write_align), val(write_target), val(write_domain)

    output:
    tuple val(meta), path("*.txt.gz"), emit: output
    tuple val(meta), path("*.sto.gz"), emit: alignments, optional: true
    tuple val(meta), path("*.tbl.gz"), emit: target_summary, optional: true
    tuple val(meta), path("*.domtbl.gz"), emit: domain_summary, optional: true
    tuple val("${task.process}"), val('warpdp'), eval("gpu-hmmsearch --version | sed -n '1s/.* //p'"), emit: versions_warpdp, topic: versions
    tuple val("${task.process}"), val('hmmer'), eval("hmmsearch -h | grep '^# HMMER' | cut -d ' ' -f 3"), emit: versions_hmmer, topic: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_HMMSEARCH has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def args           = task.ext.args   ?: ''
    def prefix         = task.ext.prefix ?: "${meta.id}"
    def align_file     = write_align  ? "${prefix}.sto" : ''
    def target_file    = write_target ? "${prefix}.tbl" : ''
    def domain_file    = write_domain ? "${prefix}.domtbl" : ''
    def alignment      = write_align  ? "-A ${align_file}" : ''
    def target_summary = write_target ? "--tblout ${target_file}" : ''
    def domain_summary = write_domain ? "--domtblout ${domain_file}" : ''
    // gpu-hmmsearch takes hmmsearch's command line; its filters' device and
    // threads come from the environment
    // N GPUs asked for (task.accelerator.request): the first N the task sees,
    // cuda:0,..,N-1; none: the CPU (modules/README.md, "GPUs")
    def gpus   = task.accelerator?.request ?: 0
    def device = !task.accelerator ? 'cpu' : gpus ? 'cuda:' + (0..<gpus).join(',') : 'auto'
    """
    export WARPDP_DEVICE=${device}
    export WARPDP_THREADS=${task.cpus}
    gpu-hmmsearch \\
        ${args} \\
        --cpu ${task.cpus} \\
        -o ${prefix}.txt \\
        ${alignment} \\
        ${target_summary} \\
        ${domain_summary} \\
        ${hmmfile} \\
        ${seqdb}

    gzip --no-name ${prefix}.txt ${align_file} ${target_file} ${domain_file}
    """

    stub:
    if (workflow.profile.tokenize(',').intersect(['conda', 'mamba']).size() >= 1) {
        error("WARPDP_HMMSEARCH has no conda package: run it with docker, singularity, apptainer or podman")
    }
    def prefix      = task.ext.prefix ?: "${meta.id}"
    def align_file  = write_align  ? "${prefix}.sto" : ''
    def target_file = write_target ? "${prefix}.tbl" : ''
    def domain_file = write_domain ? "${prefix}.domtbl" : ''
    """
    touch ${prefix}.txt ${align_file} ${target_file} ${domain_file}
    gzip --no-name ${prefix}.txt ${align_file} ${target_file} ${domain_file}
    """
}
