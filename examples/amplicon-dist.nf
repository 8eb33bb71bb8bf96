#!/usr/bin/env nextflow
// All-pairs NDist distances of amplicon reads over many GPU tasks: the strict
// lower triangle is cut into params.tiles tiles of about equal work
// (gpu-nw-dist --tile K/N), each one WARPDP_NWDIST task on the task's GPU,
// and the tiles, concatenated in order, are byte for byte the matrix one
// gpu-nw-dist run writes (in every output format: ndist by default, others
// through WARPDP_NWDIST's ext.args "--format F").
//
//   nextflow run examples/amplicon-dist.nf -profile test,docker
//   nextflow run examples/amplicon-dist.nf -profile singularity,gpu --reads reads.fa --tiles 16
//
// Parameters (examples/nextflow.config): reads, tiles, outdir.
// Results: <outdir>/amplicon-dist/<reads>.<format>.gz (gzip of the matrix).

include { WARPDP_NWDIST } from '../modules/warpdp/warpdp/nwdist/main'

// The tiles, in tile order, as one file. The suffix (format) is the tiles' own.
process CONCAT_TILES {
    tag "${meta.id}"
    label 'process_single'

    container "${ workflow.containerEngine in ['singularity', 'apptainer'] && !task.ext.singularity_pull_docker_container ?
        'https://github.com/warpdp/warpdp/releases/download/v0.1.0/warpdp-0.1.0.sif' :
        'quay.io/warpdp/warpdp:0.1.0' }"

    input:
    tuple val(meta), path(tiles), val(suffix)

    output:
    tuple val(meta), path("${meta.id}.${suffix}.gz"), emit: distances

    script:
    """
    zcat ${tiles} | gzip --no-name > ${meta.id}.${suffix}.gz
    """

    stub:
    """
    touch ${meta.id}.${suffix}
    gzip --no-name ${meta.id}.${suffix}
    """
}

workflow {
    if (!params.reads) {
        error("amplicon-dist.nf needs --reads READS.fa (or -profile test for the bundled data)")
    }
    def reads = file(params.reads, checkIfExists: true)
    def name = reads.simpleName
    def n = params.tiles

    // meta.tile keeps the tile order through tasks that finish in any order
    def tiles = channel.of(1..n)
        .map { k -> [[id: name, tile: k], reads, "${k}/${n}".toString()] }

    WARPDP_NWDIST(tiles)

    // WARPDP_NWDIST names a tile <id>.tile<K>of<N>.<format>.gz
    def gathered = WARPDP_NWDIST.out.distances
        .toSortedList { a, b -> a[0].tile <=> b[0].tile }
        .map { list -> [[id: name], list.collect { entry -> entry[1] }, list[0][1].name.tokenize('.')[-2]] }

    CONCAT_TILES(gathered)

    channel.topic('versions')
        .unique()
        .map { proc, tool, version -> "${proc}\t${tool}\t${version}" }
        .collectFile(name: 'versions.tsv', storeDir: "${params.outdir}/pipeline_info", sort: true, newLine: true)
}
