#!/usr/bin/env pvpython
"""Compares two run folders value by value, bit for bit: every frame (all arrays, points, lines),
spacetime.vtu (all arrays, points, cells), the beam.pvd entries and every CSV value.

  pvpython scripts/compare_runs.py DIR_A DIR_B

Used to check that a change of the writers keeps the values (docs/performance.md, "Whole runs").
"""
import sys, os, glob, struct
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader, vtkXMLUnstructuredGridReader
from vtkmodules.util.numpy_support import vtk_to_numpy
import numpy as np

def read(path, kind):
    r = vtkXMLPolyDataReader() if kind == 'vtp' else vtkXMLUnstructuredGridReader()
    r.SetFileName(path); r.Update()
    assert r.GetErrorCode() == 0, path
    return r.GetOutput()

def arrays(d):
    out = {}
    for assoc, data in (('point', d.GetPointData()), ('cell', d.GetCellData()), ('field', d.GetFieldData())):
        for k in range(data.GetNumberOfArrays()):
            a = data.GetAbstractArray(k)
            out[assoc + ':' + a.GetName()] = vtk_to_numpy(a)
    out['points'] = vtk_to_numpy(d.GetPoints().GetData()) if d.GetPoints() else None
    if hasattr(d, 'GetLines') and d.GetLines() is not None and d.GetNumberOfLines() > 0:
        ca = d.GetLines()
        out['lines.conn'] = vtk_to_numpy(ca.GetConnectivityArray()); out['lines.off'] = vtk_to_numpy(ca.GetOffsetsArray())
    if hasattr(d, 'GetCells') and not hasattr(d, 'GetLines'):
        ca = d.GetCells()
        out['cells.conn'] = vtk_to_numpy(ca.GetConnectivityArray()); out['cells.off'] = vtk_to_numpy(ca.GetOffsetsArray())
        out['cells.types'] = vtk_to_numpy(d.GetCellTypesArray())
    return out

def same(a, b, what):
    if a is None or b is None:
        assert a is None and b is None, what
        return
    assert a.shape == b.shape, (what, a.shape, b.shape)
    if a.dtype.kind == 'f':
        assert a.dtype == b.dtype, (what, a.dtype, b.dtype)
        assert np.array_equal(a.view(np.uint64 if a.itemsize == 8 else np.uint32), b.view(np.uint64 if b.itemsize == 8 else np.uint32)), what
    else:
        assert np.array_equal(a.astype(np.int64), b.astype(np.int64)), what

def compare_vtk(pa, pb, kind):
    A, B = arrays(read(pa, kind)), arrays(read(pb, kind))
    assert sorted(A) == sorted(B), (pa, sorted(A), sorted(B))
    for k in A: same(A[k], B[k], pa + ' ' + k)
    return len(A)

def csv_values(path):
    lines = open(path).read().splitlines()
    return lines[0], [[float(v) for v in l.split(',')] for l in lines[1:]]

a, b = sys.argv[1], sys.argv[2]
frames = sorted(os.path.basename(p) for p in glob.glob(a + '/frames/*.vtp'))
assert frames == sorted(os.path.basename(p) for p in glob.glob(b + '/frames/*.vtp')), 'frame sets differ'
for f in frames: compare_vtk(a + '/frames/' + f, b + '/frames/' + f, 'vtp')
if os.path.exists(a + '/spacetime.vtu'):
    n = compare_vtk(a + '/spacetime.vtu', b + '/spacetime.vtu', 'vtu')
import xml.etree.ElementTree as ET
pa = [(float(e.get('timestep')), e.get('file')) for e in ET.parse(a + '/beam.pvd').getroot().iter('DataSet')] if os.path.exists(a + '/beam.pvd') else []
pb = [(float(e.get('timestep')), e.get('file')) for e in ET.parse(b + '/beam.pvd').getroot().iter('DataSet')] if os.path.exists(b + '/beam.pvd') else []
assert pa == pb, 'pvd differs'
nvals = 0
for name in ('field.csv', 'time_series.csv', 'space_series.csv', 'tip.csv'):
    if not os.path.exists(a + '/' + name): continue
    ha, va = csv_values(a + '/' + name); hb, vb = csv_values(b + '/' + name)
    assert ha == hb, name
    x, y = np.array(va), np.array(vb)
    assert x.shape == y.shape, (name, x.shape, y.shape)
    assert np.array_equal(x.view(np.uint64), y.view(np.uint64)), name
    nvals += x.size
print('identical: %d frames, spacetime.vtu, %d pvd entries, %d CSV values (%s vs %s)' % (len(frames), len(pa), nvals, a, b))
