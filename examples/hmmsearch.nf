#!/usr/bin/env nextflow
// hmmsearch over many GPU tasks: the target database is cut into chunks of
// params.chunk_size records (in file order); each chunk is one WARPDP_VITERBI
// task (gpu-viterbi --msv --forward: hmmsearch's MSV, bias, Viterbi and
// Forward filters, on the task's GPU), which writes the chunk's survivors and
// its target count. The survivors, gathered in chunk order, go to one plain
// hmmsearch with -Z set to the sum of the counts, whose tables are those a
// plain hmmsearch of the whole database writes: the filters are exact, and
// -Z gives every E-value the whole database's search space. This is how a
// search outgrows one GPU: Nextflow's executor spreads the chunks.
//
//   nextflow run examples/hmmsearch.nf -profile test,docker
//   nextflow run examples/hmmsearch.nf -profile singularity,gpu --hmm Pfam-A.hmm --targets uniprot.fa.gz
//
// Parameters (examples/nextflow.config): hmm, targets, chunk_size, outdir.
// Results: <outdir>/hmmsearch/<targets>.{txt,tbl,domtbl}.gz.

include { WARPDP_VITERBI } from '../modules/warpdp/warpdp/viterbi/main'

// The final search: hmmsearch itself (HMMER is in warpdp's image) on the
// survivors of every chunk, in chunk order, with the whole database's Z.
process HMMSEARCH_Z {
    tag "${meta.id}"
    label 'process_medium'

    container "${ workflow.containerEngine in ['singularity', 'apptainer'] && !task.ext.singularity_pull_docker_container ?
        'https://github.com/warpdp/warpdp/releases/download/v0.1.0/warpdp-0.1.0.sif' :
        'quay.io/warpdp/warpdp:0.1.0' }"

    input:
    tuple val(meta), path(hmmfile)
    path survivors
    path stats

    output:
    tuple val(meta), path("*.txt.gz"), emit: output
    tuple val(meta), path("*.tbl.gz"), emit: target_summary
    tuple val(meta), path("*.domtbl.gz"), emit: domain_summary
    tuple val("${task.process}"), val('hmmer'), eval("hmmsearch -h | grep '^# HMMER' | cut -d ' ' -f 3"), emit: versions_hmmer, topic: versions

    script:
    def args   = task.ext.args   ?: ''
    def prefix = task.ext.prefix ?: "${meta.id}"
    // Z: the sum of the chunks' target counts (each stats file has one "Z": line)
    """
    Z=\$(awk -F '[:,]' '/"Z":/ { z += \$2 } END { print z }' ${stats})
    zcat ${survivors} > survivors.fa
    # hmmsearch refuses an empty file: when no target survived, an empty
    # record (which it skips) stands in, and the tables hold no hits
    [ -s survivors.fa ] || echo '>no_survivors' > survivors.fa
    hmmsearch \\
        ${args} \\
        --cpu ${task.cpus} \\
        -Z \$Z \\
        -o ${prefix}.txt \\
        --tblout ${prefix}.tbl \\
        --domtblout ${prefix}.domtbl \\
        ${hmmfile} \\
        survivors.fa

    gzip --no-name ${prefix}.txt ${prefix}.tbl ${prefix}.domtbl
    """

    stub:
    def prefix = task.ext.prefix ?: "${meta.id}"
    """
    touch ${prefix}.txt ${prefix}.tbl ${prefix}.domtbl
    gzip --no-name ${prefix}.txt ${prefix}.tbl ${prefix}.domtbl
    """
}

workflow {
    if (!params.hmm || !params.targets) {
        error("hmmsearch.nf needs --hmm MODELS.hmm and --targets TARGETS.fa (or -profile test for the bundled data)")
    }
    def name = file(params.targets).simpleName
    def hmm = channel.value([[id: file(params.hmm).simpleName], file(params.hmm, checkIfExists: true)])

    // Chunks are named chunk.<n>.fa.gz, n from 1 in file order: n keeps the order
    // through tasks that finish in any order.
    def chunks = channel.fromPath(params.targets, checkIfExists: true)
        .splitFasta(by: params.chunk_size, file: 'chunk.fa', compress: true)
        .map { chunk ->
            def n = chunk.name.tokenize('.')[1].toInteger()
            [[id: "${name}.chunk${n}", chunk: n], chunk]
        }

    // ext.args '--msv --forward' (nextflow.config): the whole filter pipeline in one task
    WARPDP_VITERBI(chunks, hmm, [[:], []])

    def survivors = WARPDP_VITERBI.out.survivors
        .toSortedList { a, b -> a[0].chunk <=> b[0].chunk }
        .map { list -> list.collect { entry -> entry[1] } }
    def stats = WARPDP_VITERBI.out.stats
        .toSortedList { a, b -> a[0].chunk <=> b[0].chunk }
        .map { list -> list.collect { entry -> entry[1] } }

    HMMSEARCH_Z(hmm.map { entry -> [[id: name], entry[1]] }, survivors, stats)

    channel.topic('versions')
        .unique()
        .map { proc, tool, version -> "${proc}\t${tool}\t${version}" }
        .collectFile(name: 'versions.tsv', storeDir: "${params.outdir}/pipeline_info", sort: true, newLine: true)
}
